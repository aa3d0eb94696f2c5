import AwareCore
import AwareProtocol
import AwareRadio

/// `aware-conform discover`: a phone that subscribes on the target's air for a while, like
/// `dns-sd -B`, and what it heard. Publishes the phone rejects (a wrong service ID, a filter
/// that does not match) are kept too, so the listing can say why an accessory is not offered.
public enum Browse {
    /// What a browse heard: every matching publish.
    public struct Outcome: Sendable {
        public var results: [DiscoveryResult]
    }

    /// Subscribes with `subscription` for `seconds` on a session of `target`. With a `capture`
    /// tap, every frame the phone's air carries goes to it (a tap with a path writes each as it
    /// arrives: a browse may last an hour on a busy air).
    public static func run(
        target: any AccessoryTarget,
        seed: UInt64,
        subscription: SubscribeConfiguration,
        seconds: Double,
        capture tap: CaptureTap? = nil,
        phone: PhoneProfile = .reference
    ) throws(PhoneSessionError) -> Outcome {
        let browse = try PhoneSession.open(
            command: "discover",
            target: target,
            seed: seed,
            phoneState: nil,
            reportsRejectedPublishes: true,
            tap: tap,
            phone: phone
        )
        let session = browse.session
        defer { session.close() }
        session.perform { browse.phone.subscribe(subscription) }
        _ = session.run(until: { false }, timeout: .seconds(seconds))
        var outcome = Outcome(results: [])
        session.perform { outcome.results = browse.phone.matchedResults(serviceName: subscription.serviceName) }
        return outcome
    }
}
