import AwareCore
import AwareProtocol
import AwareRadio

/// `aware-conform discover`: a phone that subscribes on the target's air for a while, like
/// `dns-sd -B`, and what it heard. Publishes the phone rejects (a wrong service ID, a filter
/// that does not match) are kept too, so the listing can say why an accessory is not offered.
public enum Browse {
    /// What a browse heard: every matching publish, and the capture when one was asked for.
    public struct Outcome: Sendable {
        public var results: [DiscoveryResult]
        public var capture: [UInt8]?
    }

    /// Subscribes with `subscription` for `seconds` on a session of `target`.
    public static func run(
        target: any AccessoryTarget,
        seed: UInt64,
        subscription: SubscribeConfiguration,
        seconds: Double,
        capture format: CaptureFormat? = nil
    ) throws(PhoneSessionError) -> Outcome {
        let session: any TargetSession
        do {
            session = try target.openSession(SessionRequest(seed: seed))
        } catch {
            throw .target(name: target.name, reason: "\(error)")
        }
        defer { session.close() }
        let tap = format.map { CaptureTap(format: $0) }
        var phone: Phone?
        var joinError: AirError?
        session.perform {
            if let tap { session.air.addTap(tap) }
            let created = Phone(air: session.air, seed: seed, reportsRejectedPublishes: true)
            do throws(AirError) {
                try created.start()
            } catch {
                joinError = error
            }
            created.subscribe(subscription)
            phone = created
        }
        if let joinError { throw .join(joinError) }
        _ = session.run(until: { false }, timeout: .seconds(seconds))
        var outcome = Outcome(results: [], capture: nil)
        session.perform {
            outcome.results = phone?.matchedResults(serviceName: subscription.serviceName) ?? []
            if let tap, let format { outcome.capture = tap.bytes(in: format) }
        }
        return outcome
    }
}
