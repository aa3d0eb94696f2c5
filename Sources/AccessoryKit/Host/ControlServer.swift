import AwareCore
import AwareRadio
import AwareWire
import Foundation

/// `--control PATH`: the accessory's control socket (docs/reference/control.md). Up to
/// ``maximumConnections`` clients at a time; each sends JSON lines and gets exactly one reply line
/// per line, in order. The lines are parsed and carried out on the scheduler's thread (the
/// accessory's), while each connection's own thread waits for the reply and writes it. One more
/// client gets a `busy` reply and is closed; a process out of descriptors keeps listening
/// (``UnixStreamSocket/Acceptance/unavailable(errno:)``) and serves again once some are free.
///
/// `@unchecked Sendable`: the listener and the clients' sockets are thread-safe themselves;
/// `firmware` is touched only inside work posted to `scheduler`.
final class ControlServer: @unchecked Sendable {
    private let listener: UnixStreamSocket
    private let firmware: AccessoryFirmware
    private let scheduler: WallClockScheduler
    private let clients = NSLock()
    private var connections: [UnixStreamSocket] = []

    /// Connections served at once: each has a thread of its own, so their number is bounded.
    static let maximumConnections = 16
    /// How long the accept loop waits after the kernel could not hand over a connection.
    static let acceptRetryMilliseconds: UInt32 = 100
    /// Told, on the accept thread, once per run of failed accepts (a warning for the operator).
    var acceptTrouble: (@Sendable (String) -> Void)?

    init(path: String, firmware: AccessoryFirmware, scheduler: WallClockScheduler) throws(UnixStreamError) {
        listener = try UnixStreamSocket.listen(path: path)
        self.firmware = firmware
        self.scheduler = scheduler
    }

    var path: String { listener.path }

    func start() {
        Thread.detachNewThread { [self] in
            var troubled = false
            while true {
                switch listener.accept() {
                case .closed:
                    return
                case .unavailable(let code):
                    if !troubled {
                        troubled = true
                        acceptTrouble?(
                            "control: cannot take a connection now (\(String(cString: strerror(code)))); "
                                + "still listening on \(path)"
                        )
                    }
                    usleep(Self.acceptRetryMilliseconds * 1000)
                case .client(let client):
                    troubled = false
                    let admitted = clients.withLock {
                        guard connections.count < Self.maximumConnections else { return false }
                        connections.append(client)
                        return true
                    }
                    guard admitted else {
                        refuseBusy(client)
                        continue
                    }
                    Thread.detachNewThread { [self] in serve(client) }
                }
            }
        }
    }

    /// One client too many: a `busy` reply, then the connection closes.
    private func refuseBusy(_ client: UnixStreamSocket) {
        let failure = ControlFailure(
            code: "busy",
            message: "the control socket serves at most \(Self.maximumConnections) connections at a time; "
                + "close one and connect again"
        )
        _ = client.write(line: ControlReply(id: nil, command: nil, outcome: .failure(failure)).line)
        client.close()
    }

    /// Closes the listener (removing its file) and every connection.
    func stop() {
        listener.close()
        for client in clients.withLock({ connections }) { client.close() }
    }

    private func serve(_ client: UnixStreamSocket) {
        defer {
            client.close()
            clients.withLock { connections.removeAll { $0 === client } }
        }
        while true {
            let reply: String
            switch client.readLine(maximumLength: ControlLine.maximumLineLength) {
            case .end: return
            case .tooLong(let length):
                reply =
                    ControlReply(
                        id: nil,
                        command: nil,
                        outcome: .failure(ControlFailure(.tooLong(length: length)))
                    )
                    .line
            case .line(let bytes):
                guard let answer = perform(bytes) else { return }
                reply = answer
            }
            guard client.write(line: reply) else { return }
        }
    }

    /// Runs the line on the scheduler and waits for its reply; nil when the scheduler has
    /// stopped (the emulator is shutting down).
    private func perform(_ line: [UInt8]) -> String? {
        let done = DispatchSemaphore(value: 0)
        let box = ReplyBox()
        scheduler.post { [self] in
            // On a lockstep air a command that says when it was sent takes effect then, as a
            // frame from the sender would: at a time every run reaches the same way, and never in
            // the sender's past (a PASN frame 1 sent for `enter-pin` at this process's last
            // work reached a runner already 73 ms further and went out three times).
            guard let message = try? ControlLine.parse(line) else {
                // The firmware words the refusal, with its location in the line.
                box.line = firmware.perform(line: line).line
                done.signal()
                return
            }
            if scheduler.isLockstep, let at = message.at, at > scheduler.now.nanoseconds {
                _ = scheduler.schedule(at: Instant(nanoseconds: at)) { [self] in
                    box.line = firmware.perform(message).line
                    done.signal()
                }
                return
            }
            box.line = firmware.perform(message).line
            done.signal()
        }
        while done.wait(timeout: .now() + 1) == .timedOut {
            if listener.isClosed { return nil }
        }
        return box.line
    }
}

/// Carries a reply from the scheduler's thread to the connection's; the semaphore orders the
/// write before the read.
private final class ReplyBox: @unchecked Sendable {
    var line: String?
}

// MARK: - ControlChannel

/// `--control-stdin`: control lines (docs/reference/control.md) on standard input, each answered with a
/// `control_reply` event on standard output (`control_error` when refused). The runner's spawn
/// target keeps this pipe open for the child's lifetime: end of input stops the emulator, so a
/// child never outlives the runner that owns it.
///
/// `@unchecked Sendable`: the reader thread only posts lines to the scheduler; the firmware is
/// touched only on the scheduler's thread.
final class ControlChannel: @unchecked Sendable {
    private let firmware: AccessoryFirmware
    private let scheduler: WallClockScheduler
    private let output: any AccessoryHostOutput

    init(firmware: AccessoryFirmware, scheduler: WallClockScheduler, output: any AccessoryHostOutput) {
        self.firmware = firmware
        self.scheduler = scheduler
        self.output = output
    }

    func startReading() {
        Thread.detachNewThread { [self] in
            while let line = readLine(strippingNewline: true) {
                scheduler.post { [self] in handle(line) }
            }
            scheduler.stop()
        }
    }

    private func handle(_ line: String) {
        let reply = firmware.perform(line: Array(line.utf8))
        let failed: Bool
        let text: String
        switch reply.outcome {
        case .success: (failed, text) = (false, "control: \(reply.command ?? "?") done")
        case .failure(let failure): (failed, text) = (true, "control: \(failure.message)")
        }
        var fields: [(String, JSONValue)] = [("reply", reply.json)]
        if case .failure(let failure) = reply.outcome { fields.insert(("message", .string(failure.message)), at: 0) }
        output.print(
            AccessoryEvent(
                name: failed ? "control_error" : "control_reply",
                time: scheduler.now,
                fields: fields,
                text: text
            )
        )
    }
}
