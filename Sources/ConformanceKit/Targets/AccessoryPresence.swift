import AwareCore
import AwareProtocol
import AwareRadio
import AwareWire
import Foundation

/// Whether the accessory a run is about is on the air at all, judged from the air alone: before
/// any test, the runner listens (and subscribes actively, as a phone does) for a publish of one
/// of the profile's services. Without this, a missing accessory, one on another air or one
/// running another profile reads as dozens of conformance failures after minutes of timeouts;
/// with it, the run ends at once as an environment error that says what was heard instead.
///
/// Either side may start first: the runner waits up to a bound (`run --wait`, default
/// ``defaultWaitSeconds``) for the accessory to appear.
public enum AccessoryPresence {
    /// The documented default of `run --wait`: long enough to start an accessory by hand after
    /// the runner, short enough that a CI job with nothing on its air fails within a minute.
    public static let defaultWaitSeconds = 30.0

    public enum Outcome: Sendable {
        /// A publish of `service` from `publisher`, `afterSeconds` into the wait.
        case present(publisher: MACAddress, service: String, afterSeconds: Double)
        /// Nothing of the profile's services within the wait; what the air carried instead.
        case absent(HeardOnAir)
    }

    /// Listens on `target`'s air for up to `seconds` (wall clock; in lockstep virtual time
    /// too, since a lone participant's clock does not advance) for a publish of one of
    /// `services`. Throws when the target cannot open a session at all.
    public static func wait(
        on target: any AccessoryTarget,
        services: [String],
        seconds: Double,
        seed: UInt64
    ) throws -> Outcome {
        let session = try target.openSession(SessionRequest(seed: seed))
        defer { session.close() }
        let heard = HeardOnAir(services: services)
        var phone: Phone?
        var joinError: AirError?
        session.perform {
            session.air.addTap(heard)
            let created = Phone(
                air: session.air,
                seed: seed,
                unsynchronized: session.onlyUnsynchronized,
                reportsRejectedPublishes: true,
                address: session.requiredPhoneAddress
            )
            do throws(AirError) {
                try created.start()
            } catch {
                joinError = error
            }
            for service in services {
                created.subscribe(SubscribeConfiguration(serviceName: service, mode: .active))
            }
            phone = created
            heard.ownAddress = created.address
        }
        if let joinError { throw TargetError("the phone could not join the air: \(joinError)") }
        let started = Date()
        let found: () -> DiscoveryResult? = {
            phone?.results.first { result in result.matched && services.contains(result.serviceName) }
        }
        var result: DiscoveryResult?
        while result == nil {
            let left = seconds - Date().timeIntervalSince(started)
            if left <= 0 { break }
            let slice = min(left, 0.5)
            if let wallClock = session as? WallClockSession {
                _ = wallClock.run(until: { found() != nil }, timeout: .seconds(slice), wallLimit: slice + 0.5)
            } else {
                _ = session.run(until: { found() != nil }, timeout: .seconds(slice))
            }
            session.perform { result = found() }
        }
        session.perform { phone?.stop() }
        guard let result else { return .absent(heard) }
        return .present(
            publisher: result.publisherAddress,
            service: result.serviceName,
            afterSeconds: Date().timeIntervalSince(started)
        )
    }
}

/// What the air carried while the runner waited for the accessory: per station, its frames by
/// kind and the service IDs it published, for the message that says why the run cannot start.
public final class HeardOnAir: AirTap, @unchecked Sendable {
    struct Station {
        var frames = 0
        var kinds: [String: Int] = [:]
        var publishedServices: Set<ServiceID> = []
    }

    let services: [String]
    /// The runner's own phone: what it sends is not "heard".
    var ownAddress: MACAddress?
    private let lock = NSLock()
    private var stations: [MACAddress: Station] = [:]
    private var undecodable = 0

    init(services: [String]) { self.services = services }

    public func air(carried frame: [UInt8], on channel: NANChannel, signalDBm: Int, at time: Instant) {
        record(frame)
    }

    public func air(carried frame: [UInt8], on channel: NANChannel, signalDBm: Int, rate: TxRate?, at time: Instant) {
        record(frame)
    }

    private func record(_ bytes: [UInt8]) {
        guard let management = try? IEEE80211Frame(bytes: bytes).managementFrame else {
            lock.withLock { undecodable += 1 }
            return
        }
        let transmitter = management.header.address2
        if transmitter == ownAddress { return }
        var published: [ServiceID] = []
        if case .serviceDiscovery(let sdf) = management.body {
            for case .serviceDescriptor(let sda) in sdf.attributes where sda.type == .publish {
                published.append(sda.serviceID)
            }
        }
        let kind = Self.kind(of: management.body)
        lock.withLock {
            stations[transmitter, default: Station()].frames += 1
            stations[transmitter, default: Station()].kinds[kind, default: 0] += 1
            stations[transmitter, default: Station()].publishedServices.formUnion(published)
        }
    }

    /// A short name for a frame's kind: "NAN beacon", "SDF", "NAF", "PASN", ...
    static func kind(of body: ManagementFrameBody) -> String {
        switch body {
        case .serviceDiscovery: "SDF"
        case .nanAction: "NAF"
        case .nanBeacon: "NAN beacon"
        case .pasnAuthentication: "PASN"
        case .protected: "protected frame"
        case .otherAction, .otherManagement: "other management frame"
        }
    }

    /// One line per station, e.g. `02:a0:00:00:00:07: 31 frames (29 NAN beacon, 2 SDF); publishes
    /// service ID 0a1b2c3d4e5f (not one of the profile's)`.
    public var lines: [String] {
        lock.withLock {
            let wanted = Dictionary(services.map { (ServiceID(serviceName: $0), $0) }) { first, _ in first }
            var lines = stations.sorted { $0.key.description < $1.key.description }.map { address, station in
                let kinds = station.kinds.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                    .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
                var line = "\(address): \(station.frames) frame\(station.frames == 1 ? "" : "s") (\(kinds))"
                if !station.publishedServices.isEmpty {
                    let ids = station.publishedServices.map(\.description).sorted().map { id in
                        wanted.first { $0.key.description == id }.map { "\(id) (\($0.value))" } ?? id
                    }
                    line += "; publishes service ID \(ids.joined(separator: ", "))"
                }
                return line
            }
            if undecodable > 0 { lines.append("\(undecodable) frame(s) that are not 802.11 management frames") }
            return lines
        }
    }

    /// The whole account: what the runner wanted, and what it heard instead.
    public func explanation(target: String, seconds: Double) -> String {
        let ids = services.map { "\($0) (service ID \(ServiceID(serviceName: $0)))" }.joined(separator: ", ")
        let heard = lines
        var text = "no accessory published \(ids) on \(target) within \(Self.format(seconds)) s"
        if heard.isEmpty {
            text += "; nothing else was heard either (is the accessory running, on this air?)"
        } else {
            text += "; heard instead:\n" + heard.map { "  " + $0 }.joined(separator: "\n")
        }
        return text
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }
}
