import AwareCore
import AwareRadio
import AwareWire

/// Carries out a test's fault steps: the air asks it about every frame (``FrameImpairer``),
/// the phone tells it how far the test has come (``observe(_:fields:)``), and the scenario
/// takes the reboots it asks for between waits. Lives on the air's scheduler.
final class FaultInjector: FrameImpairer {
    let steps: [FaultStep]
    /// Station names of the runner's own stations: frames from them are the phone's.
    let phoneStations: Set<String>
    /// Where each injection is written (the test's events.jsonl, `fault_injected`).
    let log: (String, [String: JSONValue]) -> Void
    let now: () -> Instant

    /// Frames of each step's kind seen so far, by step number.
    private var counts: [Int: Int] = [:]
    /// Frames a step took on their first transmission, so their retransmissions get the same
    /// treatment (Retry bit cleared for the comparison).
    private var ongoing: [Int: [UInt8]] = [:]
    private var reached: Set<FaultMilestone> = []
    private var outOfRangeUntil: Instant?
    private var pendingReboots: [FaultStep] = []
    /// Injections so far, for the evidence summary.
    private(set) var injections = 0

    init(
        steps: [FaultStep],
        phoneStations: Set<String>,
        now: @escaping () -> Instant,
        log: @escaping (String, [String: JSONValue]) -> Void
    ) {
        self.steps = steps
        self.phoneStations = phoneStations
        self.now = now
        self.log = log
    }

    // MARK: Frames

    func holdBack(_ frame: [UInt8], from origin: FrameOrigin, at time: Instant) -> Interval? {
        var kinds: Set<FaultFrameKind>?
        for step in steps {
            guard case .delay(let selector, let delay) = step.action else { continue }
            kinds = kinds ?? FaultFrameKind.kinds(of: frame)
            guard let nth = take(step, selector, kinds: kinds!, origin: origin) else { continue }
            record(
                step,
                frame: frame,
                kinds: kinds!,
                nth: nth,
                attempt: 1,
                ["milliseconds": .double(delay.milliseconds)]
            )
            return delay
        }
        return nil
    }

    func impairment(of frame: [UInt8], from origin: FrameOrigin, attempt: Int, at time: Instant) -> FrameImpairment {
        if let until = outOfRangeUntil {
            if time < until { return .lost }
            outOfRangeUntil = nil
            log("fault_ended", ["action": .string("out-of-range")])
        }
        var kinds: Set<FaultFrameKind>?
        var result = FrameImpairment.intact
        var current = frame
        for step in steps {
            let selector: FaultFrameSelector
            switch step.action {
            case .drop(let chosen, _), .corrupt(let chosen, _, _, _): selector = chosen
            default: continue
            }
            let nth: Int
            if attempt > 1 {
                // A retransmission: the same treatment as its first transmission, if it had one.
                guard let taken = ongoing[step.number], Self.sameFrame(taken, frame) else { continue }
                nth = counts[step.number] ?? 0
            } else {
                kinds = kinds ?? FaultFrameKind.kinds(of: frame)
                guard let counted = take(step, selector, kinds: kinds!, origin: origin) else { continue }
                nth = counted
            }
            switch step.action {
            case .drop(_, let everyAttempt):
                if everyAttempt { ongoing[step.number] = frame } else { ongoing[step.number] = nil }
                record(step, frame: frame, kinds: kinds ?? [], nth: nth, attempt: attempt, [:])
                return .lost
            case .corrupt(_, let field, let occurrence, let change):
                ongoing[step.number] = frame
                guard let range = field.locate(in: current, occurrence: occurrence),
                    let changed = change.apply(to: current, at: range)
                else {
                    record(
                        step,
                        frame: frame,
                        kinds: kinds ?? [],
                        nth: nth,
                        attempt: attempt,
                        ["absent": .string("\(field)")]
                    )
                    continue
                }
                current = changed
                result = .altered(changed)
                record(
                    step,
                    frame: frame,
                    kinds: kinds ?? [],
                    nth: nth,
                    attempt: attempt,
                    ["field": .string("\(field)"), "offset": .integer(Int64(range.lowerBound))]
                )
            default:
                continue
            }
        }
        return result
    }

    /// The position of this frame among the step's kind (1-based) when the step takes it.
    private func take(
        _ step: FaultStep,
        _ selector: FaultFrameSelector,
        kinds: Set<FaultFrameKind>,
        origin: FrameOrigin
    ) -> Int? {
        guard kinds.contains(selector.kind), selector.sender.includes(origin, phoneStations: phoneStations) else {
            return nil
        }
        let count = (counts[step.number] ?? 0) + 1
        counts[step.number] = count
        if let nth = selector.nth, nth != count { return nil }
        return count
    }

    private func record(
        _ step: FaultStep,
        frame: [UInt8],
        kinds: Set<FaultFrameKind>,
        nth: Int,
        attempt: Int,
        _ extra: [String: JSONValue]
    ) {
        injections += 1
        var fields: [String: JSONValue] = [
            "step": .integer(Int64(step.number)), "action": .string(step.action.name), "nth": .integer(Int64(nth)),
            "attempt": .integer(Int64(attempt)),
        ]
        if let selector = step.action.selector { fields["frame"] = .string(selector.kind.rawValue) }
        if frame.count >= 16, let transmitter = MACAddress(frame[10..<16]) {
            fields["transmitter"] = .string(transmitter.description)
        }
        fields.merge(extra) { first, _ in first }
        log("fault_injected", fields)
    }

    /// Equal but for the Retry bit (Frame Control flags, bit 3).
    static func sameFrame(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count, a.count >= 2 else { return a == b }
        return a[0] == b[0] && a[1] & ~0x08 == b[1] & ~0x08 && a[2...] == b[2...]
    }

    // MARK: Moments of the test

    /// The phone logged `event`: lifecycle steps waiting for that moment start.
    func observe(_ event: String, fields: [String: JSONValue]) {
        for milestone in FaultMilestone.allCases where milestone.isReached(by: event, fields: fields) {
            reach(milestone)
        }
    }

    func reach(_ milestone: FaultMilestone) {
        guard reached.insert(milestone).inserted else { return }
        for step in steps {
            switch step.action {
            case .reboot(let after) where after == milestone:
                pendingReboots.append(step)
            case .outOfRange(let after, let duration) where after == milestone:
                injections += 1
                outOfRangeUntil = duration.map { now() + $0 } ?? Instant(nanoseconds: .max)
                var fields: [String: JSONValue] = [
                    "step": .integer(Int64(step.number)), "action": .string("out-of-range"),
                    "after": .string(milestone.rawValue),
                ]
                if let duration { fields["seconds"] = .double(duration.seconds) }
                log("fault_injected", fields)
            default:
                continue
            }
        }
    }

    var hasPendingReboot: Bool { !pendingReboots.isEmpty }

    /// The next reboot to carry out, logged as injected.
    func takePendingReboot() -> FaultStep? {
        guard !pendingReboots.isEmpty else { return nil }
        let step = pendingReboots.removeFirst()
        injections += 1
        if case .reboot(let after) = step.action {
            log(
                "fault_injected",
                ["step": .integer(Int64(step.number)), "action": .string("reboot"), "after": .string(after.rawValue)]
            )
        }
        return step
    }
}
