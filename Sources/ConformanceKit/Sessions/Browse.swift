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
        let tap = format.map { CaptureTap(format: $0) }
        let browse = try PhoneSession.open(
            command: "discover",
            target: target,
            seed: seed,
            phoneState: nil,
            reportsRejectedPublishes: true,
            tap: tap
        )
        let session = browse.session
        defer { session.close() }
        session.perform { browse.phone.subscribe(subscription) }
        _ = session.run(until: { false }, timeout: .seconds(seconds))
        var outcome = Outcome(results: [], capture: nil)
        session.perform {
            outcome.results = browse.phone.matchedResults(serviceName: subscription.serviceName)
            if let tap, let format { outcome.capture = tap.bytes(in: format) }
        }
        return outcome
    }
}
