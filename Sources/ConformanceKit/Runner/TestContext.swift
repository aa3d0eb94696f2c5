import AwareCore
import AwareProtocol
import AwareWire
import Foundation

/// What a test body works with: its seed and random numbers, its clock and budget, the event log, the
/// capture, and expectations that record failures.
///
/// The body runs on its own thread; the runner reads the context when the body ends or when the
/// wall-clock guard fires. After the guard fires the context is sealed: the evidence already written
/// is what was logged until then, and anything an abandoned body does later is dropped.
public final class TestContext: @unchecked Sendable {
    public let id: TestID
    public let title: String
    /// The seed of this iteration (docs/reference/reports.md, "Seeds").
    public let seed: UInt64
    /// 1-based.
    public let iteration: Int
    /// The virtual time the test may spend; its simulated air should stop at `deadline`.
    public let budget: Interval
    public let capabilities: TargetCapabilities
    public let clock: TestClock
    /// The steps of the run's fault plan that apply to this test (`--fault-plan`); the test's
    /// scenario hands them to the air.
    public let faultSteps: [FaultStep]
    /// How the phone lays out its data path proposals in this run (`--proposal-shape`).
    public let proposalShape: NDPProposalShape
    /// How the phone behaves in this run (`--phone`, docs/phones.md).
    public let phone: PhoneProfile
    /// A deterministic generator seeded with `seed`. Use it from the body's thread only; hand other
    /// parts of the test their own stream with `makeGenerator(_:)`.
    public var generator: SeededGenerator

    private let lock = NSLock()
    private let started = ContinuousClock.now
    private var virtualNow = Instant.zero
    private var events: [EventLine] = []
    private var failures: [RecordedFailure] = []
    private var captureRecords: [CaptureRecord] = []
    private var captureBytes: [UInt8]?
    private var attachments: [String: [UInt8]] = [:]
    private var latency: [LatencyHistogram] = []
    private var sealed = false
    private var cancelled = false
    private var operatorTotal = Duration.zero
    private var operatorSince: ContinuousClock.Instant?
    private var personTotal = Interval.zero

    init(
        id: TestID,
        title: String,
        seed: UInt64,
        iteration: Int,
        budget: Interval,
        capabilities: TargetCapabilities,
        clock: TestClock,
        faultSteps: [FaultStep] = [],
        proposalShape: NDPProposalShape = .basic,
        phone: PhoneProfile = .reference
    ) {
        self.proposalShape = proposalShape
        self.phone = phone
        self.id = id
        self.title = title
        self.seed = seed
        self.iteration = iteration
        self.budget = budget
        self.capabilities = capabilities
        self.clock = clock
        self.faultSteps = faultSteps
        generator = SeededGenerator(seed: seed)
    }

    // MARK: Time

    /// The time on the test's clock: the virtual time last set, or wall time since the test began.
    public var now: Instant {
        switch clock {
        case .virtual: return lock.withLock { virtualNow }
        case .wall: return Self.instant(ContinuousClock.now - started)
        }
    }

    /// Where the budget ends: virtual time starts at zero for every test.
    public var deadline: Instant { .zero + budget }

    /// Moves the virtual clock forward (never back); the simulated air calls this as events fire.
    public func advanceVirtualTime(to time: Instant) {
        lock.withLock {
            if !sealed, time > virtualNow { virtualNow = time }
        }
    }

    /// Runs `work` (a PIN prompt, an operator's reboot command) as time the accessory does not
    /// answer for: the wall-clock guard is extended by it, so a person who takes a minute to
    /// power-cycle a device does not make the test a timeout.
    public func waitingForOperator<Value>(_ work: () throws -> Value) rethrows -> Value {
        let began = ContinuousClock.now
        lock.withLock { operatorSince = began }
        defer {
            lock.withLock {
                operatorTotal += ContinuousClock.now - began
                operatorSince = nil
            }
        }
        return try work()
    }

    /// Runs `work`, which lets `interval` pass while the phone's person reads and types a PIN
    /// (docs/phones.md): like ``waitingForOperator(_:)`` it is not the accessory's time, so it
    /// extends the wall-clock guard and, on virtual time, the test's budget.
    public func waitingForPerson(_ interval: Interval, _ work: () -> Void) {
        lock.withLock { personTotal = personTotal + interval }
        waitingForOperator(work)
    }

    /// Virtual time the phone's person spent (``waitingForPerson(_:_:)``): added to the budget.
    public var personTime: Interval { lock.withLock { personTotal } }

    /// Wall-clock time spent in ``waitingForOperator(_:)`` so far, the current wait included.
    var operatorTime: Duration {
        lock.withLock { operatorTotal + (operatorSince.map { ContinuousClock.now - $0 } ?? .zero) }
    }

    /// True once the runner gave up on the test (the wall-clock guard fired): loops should stop.
    public var isCancelled: Bool { lock.withLock { cancelled } }

    /// An independent deterministic stream for one part of the test ("air", "phone"), so that adding
    /// draws in one part does not shift the numbers another part sees.
    public func makeGenerator(_ label: String) -> SeededGenerator {
        SeededGenerator(seed: TestSeed.derive(base: seed, label: label))
    }

    // MARK: Events and evidence

    /// Appends a line to events.jsonl at the current time. `t` and `event` are reserved keys.
    public func log(_ event: String, _ fields: [String: JSONValue] = [:]) {
        log(event, at: now, fields)
    }

    public func log(_ event: String, at time: Instant, _ fields: [String: JSONValue] = [:]) {
        lock.withLock {
            if !sealed { events.append(EventLine(time: time, event: event, fields: fields)) }
        }
    }

    /// Adds a frame to the test's capture.pcap.
    public func capture(_ record: CaptureRecord) {
        lock.withLock {
            if !sealed { captureRecords.append(record) }
        }
    }

    /// Replaces the test's capture with a whole pcap file (from the air's capture tap).
    public func setCapture(pcap bytes: [UInt8]) {
        lock.withLock {
            if !sealed { captureBytes = bytes }
        }
    }

    /// Keeps another evidence file next to events.jsonl (an emulator's log, say). `name` must be a
    /// plain file name; other names are ignored rather than written outside the test's directory.
    public func attach(_ name: String, contents: [UInt8]) {
        guard Self.isPlainFileName(name) else { return }
        lock.withLock {
            if !sealed { attachments[name] = contents }
        }
    }

    static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 100 && name != "." && name != ".." && !name.contains("/")
            && name != EvidenceLayout.eventsFile && name != EvidenceLayout.captureFile && !name.hasPrefix(".")
    }

    // MARK: Expectations

    /// Records a failure when `condition` is false; the test goes on. Returns `condition`.
    @discardableResult
    public func expect(
        _ condition: Bool,
        _ message: @autoclosure () -> String,
        fileID: String = #fileID,
        line: Int = #line
    ) -> Bool {
        if !condition { fail(message(), fileID: fileID, line: line) }
        return condition
    }

    /// Records "what: expected E, got A" when the two differ.
    @discardableResult
    public func expectEqual<Value: Equatable>(
        _ actual: Value,
        _ expected: Value,
        _ what: @autoclosure () -> String,
        fileID: String = #fileID,
        line: Int = #line
    ) -> Bool {
        expect(actual == expected, "\(what()): expected \(expected), got \(actual)", fileID: fileID, line: line)
    }

    /// Records a failure and ends the test when `condition` is false.
    public func require(
        _ condition: Bool,
        _ message: @autoclosure () -> String,
        fileID: String = #fileID,
        line: Int = #line
    ) throws {
        if !condition {
            fail(message(), fileID: fileID, line: line)
            throw TestInterruption.requirementFailed
        }
    }

    /// The value, or a recorded failure that ends the test when it is nil.
    public func require<Value>(
        _ value: Value?,
        _ message: @autoclosure () -> String,
        fileID: String = #fileID,
        line: Int = #line
    ) throws -> Value {
        guard let value else {
            fail(message(), fileID: fileID, line: line)
            throw TestInterruption.requirementFailed
        }
        return value
    }

    /// Records a failure; the test goes on.
    public func fail(_ message: String, fileID: String = #fileID, line: Int = #line) {
        let location = "\(fileID.split(separator: "/").last.map(String.init) ?? fileID):\(line)"
        let time = now
        lock.withLock {
            guard !sealed else { return }
            failures.append(RecordedFailure(message: message, location: location, time: time))
            events.append(
                EventLine(
                    time: time,
                    event: "expectation-failed",
                    fields: ["message": .string(message), "location": .string(location)]
                )
            )
        }
    }

    /// Keeps a latency histogram for the reports (a performance test's measured samples, per
    /// access category); dropped once the context is sealed, like everything else the body sends.
    public func record(latency histogram: LatencyHistogram) {
        lock.withLock {
            if !sealed { latency.append(histogram) }
        }
    }

    /// Ends the test as skipped: the target turned out not to support what the test needs.
    public func skip(_ reason: String) throws -> Never {
        throw TestInterruption.skipped(reason: reason)
    }

    // MARK: Runner side

    var recordedFailures: [RecordedFailure] { lock.withLock { failures } }

    var recordedLatency: [LatencyHistogram] { lock.withLock { latency } }

    /// Logs a runner event (test-started, test-finished) even after the body is abandoned.
    func logFromRunner(_ event: String, _ fields: [String: JSONValue]) {
        let time = now
        lock.withLock { events.append(EventLine(time: time, event: event, fields: fields)) }
    }

    /// Appends the runner's closing event, stops accepting anything from the body and returns what it
    /// left. The closing event's time is the test's final time, so it ends the file in order.
    func seal(cancel: Bool, closing event: String, _ fields: [String: JSONValue]) -> EvidenceSnapshot {
        let time = now
        return lock.withLock {
            if !sealed {
                events.append(EventLine(time: time, event: event, fields: fields))
            }
            sealed = true
            if cancel { cancelled = true }
            return EvidenceSnapshot(
                events: events,
                captureRecords: captureRecords,
                captureBytes: captureBytes,
                attachments: attachments,
                finalTime: time
            )
        }
    }

    static func instant(_ duration: Duration) -> Instant {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return .zero }
        return Instant(nanoseconds: UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000))
    }
}

/// How `TestContext.require` and `TestContext.skip` leave a test body early. Internal, so a body cannot
/// throw one by accident.
enum TestInterruption: Error {
    /// A requirement failed; the failure is already recorded.
    case requirementFailed
    case skipped(reason: String)
}

/// An error that means the bench, not the accessory, broke: a socket that cannot be bound, a child
/// process that does not start, a disk that is full. A test body that throws one gets the verdict
/// `error` with origin `environment`, and the run exits 3 instead of 1. Conform the integrator's own
/// error types to it where that is what they mean.
public protocol EnvironmentError: Error {}

/// An environment error with a message.
public struct EnvironmentFailure: EnvironmentError, Hashable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
