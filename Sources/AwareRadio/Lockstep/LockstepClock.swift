import AwareWire
import Foundation
import Glibc

/// The clock of a lockstep air: a thread in the first process that joins the air with
/// lockstep, on its own socket `PATH/.lockstep/clock` (a subfolder, so frames never reach it).
/// It runs ``LockstepClockState`` over datagrams, and drops members whose socket is gone.
///
/// `@unchecked Sendable`: `state` is touched only by the clock's thread; the socket is
/// thread-safe.
final class LockstepClock: @unchecked Sendable {
    let path: String
    private let socket: UnixDatagramSocket
    private var state = LockstepClockState()
    private let finished = DispatchSemaphore(value: 0)

    /// The clock's socket path for the air in `directory`.
    static func socketPath(in directory: String) -> String { directory + "/.lockstep/clock" }

    /// Starts the air's clock unless a live one answers there; nil when another process has it.
    static func startIfAbsent(in directory: String) throws(AirError) -> LockstepClock? {
        let folder = directory + "/.lockstep"
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw .unavailable("cannot create \(folder): \(UnixDatagramSocket.errorText(errno))")
        }
        let path = socketPath(in: directory)
        if SocketAirDirectory.isSocket(path) {
            // A live clock answers a probe; a dead process's socket refuses it.
            let probe = try UnixDatagramSocket(
                bindingTo: folder + "/" + SocketAirDirectory.newSocketName(),
                sendTimeout: .milliseconds(100)
            )
            defer {
                SocketAirDirectory.removeSocket(probe.path)
                probe.close()
            }
            if probe.send(LockstepMessage.probe.datagram.bytes, to: Array(path.utf8)) == .sent { return nil }
            SocketAirDirectory.removeSocket(path)
        }
        let clock = LockstepClock(socket: try UnixDatagramSocket(bindingTo: path, sendTimeout: .milliseconds(200)))
        clock.start()
        return clock
    }

    private init(socket: UnixDatagramSocket) {
        self.socket = socket
        path = socket.path
    }

    private func start() {
        let thread = Thread { [self] in
            serve()
            finished.signal()
        }
        thread.name = "Lockstep clock"
        thread.start()
    }

    /// Stops the clock and removes its socket.
    func close() {
        socket.shutdown()
        finished.wait()
        SocketAirDirectory.removeSocket(path)
        socket.close()
    }

    private func serve() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            guard socket.waitReadable(milliseconds: 500) else {
                if socket.isClosed { return }
                dropVanishedMembers()
                continue
            }
            guard let received = socket.receive(into: &buffer) else { return }
            let source = received.source.prefix { $0 != 0 }
            guard let datagram = try? SocketAirDatagram(bytes: received.bytes),
                let message = LockstepMessage(datagram), !source.isEmpty
            else { continue }
            let member = String(decoding: source, as: UTF8.self)
            send(state.handle(message, from: member))
        }
    }

    /// Members that owe a report but whose process is gone leave the round.
    private func dropVanishedMembers() {
        for member in state.waitingFor {
            switch socket.send(LockstepMessage.probe.datagram.bytes, to: Array(member.utf8)) {
            case .refused, .missing: send(state.remove(member))
            case .sent, .busy, .failed: continue
            }
        }
    }

    private func send(_ outputs: [LockstepClockState.Output]) {
        for case .send(let message, let member) in outputs {
            // A grant must not be lost: a full queue is waited out (briefly), a vanished
            // member leaves.
            var tries = 0
            while true {
                switch socket.send(message.datagram.bytes, to: Array(member.utf8)) {
                case .sent: break
                case .busy where tries < 50:
                    tries += 1
                    continue
                case .refused, .missing, .busy, .failed:
                    send(state.remove(member))
                }
                break
            }
        }
    }
}
