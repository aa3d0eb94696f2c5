import AwareCore
import AwareRadio
import AwareWire
import Foundation

/// The runner's end of an accessory's control socket (`accessory-emu --control PATH`,
/// docs/reference/control.md): lifecycle steps (reboot, factory reset, shutdown), faults and the
/// accessory's place on the air, one request and one reply at a time, as Matter's test harness
/// drives the apps it tests.
final class AccessoryControlClient {
    let path: String
    private let socket: UnixStreamSocket
    private var nextID: Int64 = 1

    /// Connects, retrying for `timeout` seconds while the socket does not exist yet.
    init(path: String, timeout: Double = 5) throws {
        self.path = path
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            do {
                socket = try UnixStreamSocket.connect(path: path, timeout: 30)
                return
            } catch {
                guard Date() < deadline else {
                    throw TargetError(
                        "the accessory's control socket: \(error) (is accessory-emu running with --control \(path)?)"
                    )
                }
                usleep(20_000)
            }
        }
    }

    /// Sends `command` with `fields` and returns the reply's `result`; a refusal or a lost
    /// connection is a TargetError that quotes the accessory.
    /// With `at` (a lockstep air's virtual time, ns), the command takes effect then.
    @discardableResult
    func request(_ command: String, _ fields: [(String, JSONValue)] = [], at: UInt64? = nil) throws -> JSONValue {
        let id = nextID
        nextID += 1
        var members: [(String, JSONValue)] = [("id", .integer(id)), ("command", .string(command))] + fields
        if let at { members.append(("at", .integer(Int64(clamping: at)))) }
        let line = JSONValue.object(members).serialized
        guard socket.write(line: line) else {
            throw TargetError("the accessory's control socket \(path) closed before \(command)")
        }
        guard case .line(let bytes) = socket.readLine(maximumLength: 1 << 20),
            let reply = try? JSONValue(parsing: bytes), reply.objectValue != nil
        else {
            throw TargetError("no reply to \(command) on the accessory's control socket \(path)")
        }
        guard reply["id"]?.integerValue == id else {
            throw TargetError("the reply on \(path) answers another request than \(command) (id \(id))")
        }
        guard reply["ok"]?.boolValue == true else {
            let error = reply["error"]
            throw TargetError(
                "the accessory refused \(command): \(error?["message"]?.stringValue ?? "no reason given")"
                    + " (\(error?["code"]?.stringValue ?? "?"))"
            )
        }
        return reply["result"] ?? .object([])
    }

    /// `reboot`: the accessory's power cycle; its NMI afterwards.
    func reboot(newAddress: MACAddress?) throws -> MACAddress? {
        let fields: [(String, JSONValue)] = newAddress.map { [("nmi", .string($0.description))] } ?? []
        return try request("reboot", fields)["nmi"]?.stringValue.flatMap(MACAddress.init(string:))
    }

    func factoryReset() throws -> MACAddress? {
        try request("factory-reset")["nmi"]?.stringValue.flatMap(MACAddress.init(string:))
    }

    /// The reverse role's PIN, typed on the accessory; with `at` (a lockstep air's virtual time)
    /// it goes in then, so PASN frame 1 is never in the runner's past (docs/reference/control.md).
    func enterPIN(_ pin: String, at: UInt64?) throws {
        try request("enter-pin", [("pin", .string(pin))], at: at)
    }

    func updateService(_ service: String, txt: [String: String]) throws {
        let entries = JSONValue.object(txt.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
        try request("update-service", [("service", .string(service)), ("txt", entries)])
    }

    func setFaults(_ faults: [String]) throws {
        try request("set-faults", [("faults", .array(faults.map { .string($0) }))])
    }

    func close() { socket.close() }
}
