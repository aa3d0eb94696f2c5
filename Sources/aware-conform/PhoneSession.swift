import ArgumentParser
import AwareCommandLine
import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import ConformanceKit
import Foundation

/// What `pair` and `reconnect` share: a session with the target, a phone with its store on it,
/// the accessory found by subscribing, and the result printed as text or JSON.
struct PhoneSession {
    let command: String
    let target: any AccessoryTarget
    let session: any TargetSession
    let phone: Phone
    /// Held for the command's lifetime: the lock keeps a second runner off the same store.
    let store: PairingStore?

    /// Opens the session and starts the phone; environment problems exit 3.
    static func open(
        command: String,
        target: any AccessoryTarget,
        seed: UInt64,
        phoneState: String?,
        faults: [String] = [],
        accessoryMode: PerformanceMode? = nil
    ) throws -> PhoneSession {
        var standardError = StandardError()
        var store: PairingStore?
        if let phoneState {
            do throws(DeviceStateError) {
                store = try PairingStore(path: phoneState)
            } catch {
                print("aware-conform \(command): --phone-state: \(error)", to: &standardError)
                throw ExitCode(3)
            }
        }
        let session: any TargetSession
        do {
            session = try target.openSession(SessionRequest(seed: seed, faults: faults, accessoryMode: accessoryMode))
        } catch {
            print("aware-conform \(command): \(target.name): \(error)", to: &standardError)
            throw ExitCode(3)
        }
        var phone: Phone?
        var joinError: AirError?
        session.perform {
            let created = Phone(air: session.air, seed: seed, pairingStore: store)
            do throws(AirError) {
                try created.start()
            } catch {
                joinError = error
            }
            phone = created
        }
        guard let phone, joinError == nil else {
            session.close()
            print(
                "aware-conform \(command): the phone cannot join the air: \(joinError.map { "\($0)" } ?? "")",
                to: &standardError
            )
            throw ExitCode(3)
        }
        return PhoneSession(command: command, target: target, session: session, phone: phone, store: store)
    }

    /// Subscribes to `service` and waits for the first accessory that publishes it.
    func find(service: String, timeout: Double) -> DiscoveryResult? {
        session.perform { phone.subscribe(SubscribeConfiguration(serviceName: service, mode: .active)) }
        var found: DiscoveryResult?
        _ = session.run(
            until: {
                found = phone.matchedResults(serviceName: service).last
                return found != nil
            },
            timeout: .seconds(timeout)
        )
        return found
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

    /// Runs `start` on the phone and waits for the outcome.
    func attempt(timeout: Double, _ start: @escaping (PhonePairing) -> Void) -> PairingOutcome? {
        session.perform { start(phone.pairing) }
        var outcome: PairingOutcome?
        _ = session.run(
            until: {
                outcome = phone.pairing.outcome
                return outcome != nil
            },
            timeout: .seconds(timeout)
        )
        // Let the accessory hear the last frame before the session closes.
        _ = session.run(until: { false }, timeout: .milliseconds(200))
        return outcome
    }

    /// Pairs with `found`, entering `pin` or else what the accessory's display shows for this phone.
    func pair(with found: DiscoveryResult, pin: String?, timeout: Double) -> PairingOutcome {
        let phoneAddress = phone.address
        let session = session
        let outcome = attempt(timeout: timeout) { phonePairing in
            phonePairing.pair(with: found) { pin ?? session.displayedPINs(for: phoneAddress).last }
        }
        return outcome ?? .failed("timeout", "the pairing did not end in time", accessory: found.publisherAddress)
    }

    /// Verifies the cached pairing with `found` (NIRA resolution, PASN verification).
    func reconnect(with found: DiscoveryResult, timeout: Double) -> PairingOutcome {
        let outcome = attempt(timeout: timeout) { $0.reconnect(with: found) }
        return outcome
            ?? .failed("timeout", "the verification did not end in time", accessory: found.publisherAddress)
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
                ("target", .string(target.name)), ("detail", .string(outcome.detail)),
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
