import ArgumentParser
import AwareCommandLine
import AwareCore
import AwareProtocol
import AwareWire
import ConformanceKit

/// How `pair`, `reconnect` and `perf` open a phone session and report its outcome: a session
/// that cannot open exits 3 with the reason; the outcome prints as text or JSON and exits 0 on
/// success, 1 otherwise.
extension PhoneSession {
    static func openOrExit(
        command: String,
        target: any AccessoryTarget,
        seed: UInt64,
        phoneState: String?,
        faults: [String] = [],
        accessoryMode: PerformanceMode? = nil,
        phone: PhoneProfile
    ) throws -> PhoneSession {
        do throws(PhoneSessionError) {
            return try open(
                command: command,
                target: target,
                seed: seed,
                phoneState: phoneState,
                faults: faults,
                accessoryMode: accessoryMode,
                phone: phone
            )
        } catch {
            var standardError = StandardError()
            print("aware-conform \(command): \(error)", to: &standardError)
            throw ExitCode(3)
        }
    }

    /// The accessory publishing `service`, or nil after reporting `not-found` (exit 1).
    func findOrFinish(service: String, options: PairingOptions) throws -> DiscoveryResult? {
        if let found = find(service: service, timeout: options.timeout) { return found }
        try finish(
            .failed("not-found", "no accessory publishes \(service)", accessory: MACAddress(0, 0, 0, 0, 0, 0)),
            service: service,
            json: options.json
        )
        return nil
    }

    /// Prints the outcome and exits 0 on success, 1 otherwise.
    func finish(_ outcome: PairingOutcome, service: String, json: Bool) throws {
        session.close()
        if json {
            let fields: [(String, JSONValue)] = [
                ("command", .string(command)), ("result", .string(outcome.result.rawValue)),
                ("reason", outcome.reason.map(JSONValue.string) ?? .null),
                ("accessory", .string(outcome.accessory.description)), ("service", .string(service)),
                ("keysCached", .bool(outcome.keysCached)),
                ("cipherSuite", outcome.cipherSuite.map { .unsigned(UInt64($0)) } ?? .null),
                ("target", .string(target.name)), ("phone", .string(phone.profile.name.rawValue)),
                ("phoneNMI", .string(phone.address.description)), ("detail", .string(outcome.detail)),
            ]
            print(JSONValue.object(fields).serialized)
        } else {
            let reason = outcome.reason.map { " (\($0))" } ?? ""
            print(
                "\(command): \(outcome.result.rawValue)\(reason) with \(outcome.accessory) on \(target.name): \(outcome.detail)"
            )
        }
        if !outcome.succeeded { throw ExitCode(1) }
    }
}
