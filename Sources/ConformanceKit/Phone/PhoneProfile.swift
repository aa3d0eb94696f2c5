import AwareCore
import AwareProtocol
import AwareWire

/// How the runner's phone behaves where real phones differ (`--phone iphone|android|reference`):
/// its NMI across connections, the layout of its NIK follow-up, how fast a person types the PIN,
/// how long its picker looks, and what it makes of a TXT value longer than 63 octets.
///
/// Every behaviour carries its ``Evidence``: where a public source states it, the source; where
/// none does, the value is marked ``Evidence/Kind/assumed`` and is a parameter of the profile
/// (docs/phones.md lists each with its reason), never a guess presented as fact. An accessory
/// that passes under one profile and fails under another fails with a real phone of that kind.
public struct PhoneProfile: Hashable, Sendable, CustomStringConvertible {
    /// The profiles `--phone` selects.
    public enum Name: String, Hashable, Sendable, CaseIterable {
        /// What an iPhone does, as far as Apple's documents and interop reports show.
        case iphone
        /// What an Android phone does (the CDD, the Wi-Fi Aware API and its CTS).
        case android
        /// The runner's well-mannered phone: one NMI, the PIN typed at once, hostap's NIK layout,
        /// an 8 s search. What every run used before phone profiles, and the default.
        case reference
    }

    /// The behaviours a profile sets, each with its evidence.
    public enum Behaviour: String, Hashable, Sendable, CaseIterable {
        case addressBetweenConnections
        case nikFollowUp
        case pinEntry
        case discoveryWindow
        case longTXTValues
        case pairingAsPublisher
    }

    /// Where the phone's NMI stands between one connection and the next.
    public enum AddressPolicy: Hashable, Sendable {
        /// The phone keeps its NMI: the accessory may know it by its address.
        case kept
        /// The phone draws a new locally administered NMI before it connects again: the
        /// accessory finds the pairing through the phone's NIK (its NPKID in PASN frame 1,
        /// nan-wire-reference.md 3.7), never through the address.
        case randomized
    }

    /// The Shared Key Descriptor the phone sends its NIK in (nan-wire-reference.md 3.6, 3.9).
    public struct NIKFollowUp: Hashable, Sendable, CustomStringConvertible {
        public var form: NIKDelivery.Form
        /// The remaining lifetime in the Key Lifetime KDE; nil leaves the KDE out.
        public var lifetimeSeconds: UInt32?

        public init(form: NIKDelivery.Form, lifetimeSeconds: UInt32?) {
            self.form = form
            self.lifetimeSeconds = lifetimeSeconds
        }

        /// Every layout seen in the field (3.9): each MIC form, with and without the Lifetime KDE.
        public static let fieldLayouts: [NIKFollowUp] = NIKDelivery.Form.allCases.flatMap { form in
            [NIKFollowUp(form: form, lifetimeSeconds: 86_400), NIKFollowUp(form: form, lifetimeSeconds: nil)]
        }

        public var description: String {
            let information = String(form.keyInformation.rawValue, radix: 16, uppercase: true)
            let mic = form.micLayout == .absent ? "no Key MIC field" : "a zero Key MIC field"
            let lifetime = lifetimeSeconds.map { "Key Lifetime KDE \($0) s" } ?? "no Key Lifetime KDE"
            return "Key Information 0x\(String(repeating: "0", count: 4 - information.count))\(information), \(mic), "
                + lifetime
        }
    }

    /// How long the person takes from the PIN appearing on the accessory to the phone's PASN
    /// frame 1: virtual time on the simulated air, real time on the others.
    public enum PINEntry: Hashable, Sendable {
        /// Typed at once (a PIN given in advance, the display read by the runner).
        case immediate
        /// A person reads and types: a delay drawn from `seconds` with the test's seed.
        case human(seconds: ClosedRange<Int>)
    }

    /// What the phone makes of a TXT value longer than 63 octets (Apple's documented limit for
    /// `vendorName`, `modelName` and `pairingName`; apple-peer-model.md 1.6).
    public enum LongTXTValues: Hashable, Sendable, CustomStringConvertible {
        /// Cuts the value to `octets` (at a UTF-8 boundary) and uses what is left.
        case truncate(octets: Int)
        /// Drops a key whose value is longer than `octets`, as if the accessory had not sent it.
        case ignoreKey(over: Int)
        /// Passes the whole value on: the phone's system does not read TXT records.
        case keepWhole

        public var description: String {
            switch self {
            case .truncate(let octets): "truncated to \(octets) octets"
            case .ignoreKey(let octets): "the key ignored when its value is over \(octets) octets"
            case .keepWhole: "kept whole (the system does not read the record)"
            }
        }

        /// The value of `key` in `txt` as this phone reads it: nil when absent, not UTF-8, or
        /// ignored. A truncated value ends at the last whole UTF-8 character within the limit.
        public func value(of key: String, in txt: DNSSDTXTRecord) -> String? {
            txt.valueOctets(forKey: key).flatMap(read)
        }

        /// A value's octets as this phone reads them (``value(of:in:)``).
        public func read(_ octets: [UInt8]) -> String? {
            switch self {
            case .keepWhole:
                return String(validating: octets, as: UTF8.self)
            case .ignoreKey(let limit):
                return octets.count > limit ? nil : String(validating: octets, as: UTF8.self)
            case .truncate(let limit):
                guard String(validating: octets, as: UTF8.self) != nil else { return nil }
                var end = min(limit, octets.count)
                // Back off continuation octets (10xxxxxx) so no character is cut in two.
                while end < octets.count, end > 0, octets[end] & 0xC0 == 0x80 { end -= 1 }
                return String(validating: octets[..<end], as: UTF8.self)
            }
        }
    }

    /// What the phone does when its app publishes and the accessory subscribes (the reverse role,
    /// apple-peer-model.md 3), as the bootstrapping, PASN, NIK and data-path responder.
    public enum PublisherPairing: Hashable, Sendable, CustomStringConvertible {
        /// Advertises PIN display (0x0002) and shows a PIN of `digits` digits to a subscriber that
        /// asks with PIN keypad (0x0020), its complement (nan-wire-reference.md 3.2); any other
        /// request is refused (status 1, reason 13).
        case showsPIN(digits: Int)

        public var description: String {
            switch self {
            case .showsPIN(let digits):
                "advertises PIN display; shows a \(digits)-digit PIN to a subscriber asking for PIN keypad, "
                    + "refuses other methods; PASN, NIK and data-path responder"
            }
        }
    }

    /// Why a behaviour has its value.
    public struct Evidence: Hashable, Sendable {
        public enum Kind: String, Hashable, Sendable {
            /// A vendor's document or a normative text states it.
            case documented
            /// Reported second-hand: an interop report, an issue thread, a reading of shipped code.
            case reported
            /// No public source: a parameter of the profile, chosen for the reason given.
            case assumed
        }

        public var kind: Kind
        /// The source, or for ``Kind/assumed`` why this value.
        public var source: String

        public init(_ kind: Kind, _ source: String) {
            self.kind = kind
            self.source = source
        }
    }

    public var name: Name
    public var addressBetweenConnections: AddressPolicy
    public var nikFollowUp: NIKFollowUp
    public var pinEntry: PINEntry
    /// How long the phone looks for the accessory before it gives up.
    public var discoveryWindow: Interval
    public var longTXTValues: LongTXTValues
    public var pairingAsPublisher: PublisherPairing
    public var evidence: [Behaviour: Evidence]

    public var description: String { name.rawValue }

    public init(_ name: Name) {
        switch name {
        case .iphone: self = .iphone
        case .android: self = .android
        case .reference: self = .reference
        }
    }

    init(
        name: Name,
        addressBetweenConnections: AddressPolicy,
        nikFollowUp: NIKFollowUp,
        pinEntry: PINEntry,
        discoveryWindow: Interval,
        longTXTValues: LongTXTValues,
        pairingAsPublisher: PublisherPairing = .showsPIN(digits: 6),
        evidence: [Behaviour: Evidence]
    ) {
        self.pairingAsPublisher = pairingAsPublisher
        self.name = name
        self.addressBetweenConnections = addressBetweenConnections
        self.nikFollowUp = nikFollowUp
        self.pinEntry = pinEntry
        self.discoveryWindow = discoveryWindow
        self.longTXTValues = longTXTValues
        self.evidence = evidence
    }

    /// The person's typing range every phone with a PIN prompt gets, from the issue that asked for
    /// it (10-60 s); no public measurement of it exists.
    static let humanTyping = 10...60

    public static let iphone = PhoneProfile(
        name: .iphone,
        addressBetweenConnections: .randomized,
        nikFollowUp: NIKFollowUp(form: .zeroMICUnflagged, lifetimeSeconds: nil),
        pinEntry: .human(seconds: humanTyping),
        discoveryWindow: .seconds(30),
        longTXTValues: .truncate(octets: 63),
        evidence: [
            .addressBetweenConnections: Evidence(
                .assumed,
                "Apple documents no NMI policy for Wi-Fi Aware. The profile takes the stricter case, a new "
                    + "locally administered NMI for each connection, which an accessory that finds pairings through "
                    + "the NIK (nan-wire-reference.md 3.7) passes either way"
            ),
            .nikFollowUp: Evidence(
                .reported,
                "ESP-IDF's NAN pairing code, written for iPhone interoperability, reads the NIK descriptor with a "
                    + "Key MIC field and takes the Key Lifetime KDE as optional because \"iPhone omits it\" "
                    + "(nan-wire-reference.md 3.9). Which Key Information bits the iPhone sets is not reported: the "
                    + "profile uses ESP-IDF's own 0x12C8"
            ),
            .pinEntry: Evidence(
                .assumed,
                "iOS asks the person for the PIN in its own sheet (AccessorySetupKit, DeviceDiscoveryUI; "
                    + "apple-peer-model.md 2.1, 3); no measurement of the time it takes is public, so 10-60 s"
            ),
            .discoveryWindow: Evidence(
                .reported,
                "AccessorySetupUI's picker looks for 30 s by default, read from the shipped code "
                    + "(apple-peer-model.md 2.1); Apple's documents give no figure"
            ),
            .longTXTValues: Evidence(
                .documented,
                "Apple's WAPairedDevice.PairingInfo documentation: the system reads vendorName, modelName and "
                    + "pairingName as a UTF-8 string of at most 63 bytes \"and may truncate it if it's longer\" "
                    + "(apple-peer-model.md 1.6)"
            ),
            .pairingAsPublisher: Evidence(
                .assumed,
                "Apple documents the roles: with DevicePairingView the app publishes, and \"the incoming request and a "
                    + "PIN code is displayed on the publisher side and entered on the subscriber side\" (WWDC25 session "
                    + "228; apple-peer-model.md 3). Which method the iPhone reads in the subscriber's request is not "
                    + "settled: one report (esp-idf #16743, iOS 26.6) saw PIN display advertised, a PIN keypad "
                    + "request refused with status 1, and a PIN display request neither refused nor answered with a "
                    + "PIN. The profile keeps the documented roles under the spec's complement rule (hostap, ESP-IDF; "
                    + "nan-wire-reference.md 3.2); six digits as the Espressif blog reports"
            ),
        ]
    )

    public static let android = PhoneProfile(
        name: .android,
        addressBetweenConnections: .randomized,
        nikFollowUp: NIKFollowUp(form: .zeroMIC, lifetimeSeconds: 43_200),
        pinEntry: .human(seconds: humanTyping),
        discoveryWindow: .seconds(30),
        longTXTValues: .keepWhole,
        evidence: [
            .addressBetweenConnections: Evidence(
                .documented,
                "the Android CDD, Wi-Fi Aware [C-1-4]: the management interface address is randomized at intervals "
                    + "no longer than 30 minutes and whenever Wi-Fi Aware is enabled, unless a data path or ranging is "
                    + "active; CTS SingleDeviceTest checks that it changes on every attach"
            ),
            .nikFollowUp: Evidence(
                .assumed,
                "Android pairs in the vendor's HAL and firmware, whose NIK layout is not public. The profile sends "
                    + "hostap's current layout (zero Key MIC field, Key Information 0x1188) with the 43,200 s "
                    + "lifetime hostap and Qualcomm's HAL default to (nan-wire-reference.md 3.6)"
            ),
            .pinEntry: Evidence(
                .assumed,
                "Android has no system PIN sheet: the app collects the PIN and passes it to "
                    + "initiatePairingRequest; no measurement of the time it takes is public, so 10-60 s"
            ),
            .discoveryWindow: Evidence(
                .assumed,
                "Android has no system picker: the app decides how long it subscribes. The profile gives it the "
                    + "iPhone picker's 30 s"
            ),
            .longTXTValues: Evidence(
                .documented,
                "Android hands the service specific info to the app as raw octets "
                    + "(DiscoverySessionCallback.onServiceDiscovered); the system reads no TXT record, so nothing "
                    + "is cut"
            ),
            .pairingAsPublisher: Evidence(
                .documented,
                "AwarePairingConfig (API 34) sets the bootstrapping methods on a PublishConfig as on a "
                    + "SubscribeConfig, with PIN display and PIN keypad as defined in Wi-Fi Aware 4.0 9.5.21.7: a "
                    + "publishing app may be the responder that shows the PIN. The PIN's length is the app's; the "
                    + "profile uses six digits"
            ),
        ]
    )

    public static let reference = PhoneProfile(
        name: .reference,
        addressBetweenConnections: .kept,
        nikFollowUp: NIKFollowUp(form: .zeroMIC, lifetimeSeconds: 86_400),
        pinEntry: .immediate,
        discoveryWindow: .seconds(8),
        longTXTValues: .truncate(octets: 63),
        evidence: [
            .addressBetweenConnections: Evidence(
                .assumed,
                "the runner's own phone keeps its NMI, as hostap's hwsim tests do; a single address makes the "
                    + "evidence of a failure easiest to read"
            ),
            .nikFollowUp: Evidence(
                .reported,
                "hostap's current nan_send_nik: a zero Key MIC field under Key Information 0x1188 with the Key "
                    + "Lifetime KDE (nan-wire-reference.md 3.6, 3.9)"
            ),
            .pinEntry: Evidence(
                .assumed,
                "the PIN typed as soon as it is shown, so that a run against a live accessory stays short"
            ),
            .discoveryWindow: Evidence(
                .assumed,
                "8 s: long enough for a publisher that sends in every discovery window, short enough for CI"
            ),
            .longTXTValues: Evidence(
                .documented,
                "Apple's documented reading (apple-peer-model.md 1.6), the one an accessory must fit"
            ),
            .pairingAsPublisher: Evidence(
                .reported,
                "hostap's publisher in its hwsim tests (test_nan_bootstrap_password): it advertises the display "
                    + "method, the subscriber requests the keypad complement, and the publisher answers as PASN "
                    + "responder (nan-wire-reference.md 3.1, 3.2)"
            ),
        ]
    )

    /// What the profile does for `behaviour`, in the words docs/phones.md's tables use.
    public func value(of behaviour: Behaviour) -> String {
        switch behaviour {
        case .addressBetweenConnections:
            switch addressBetweenConnections {
            case .kept: "keeps its NMI"
            case .randomized: "a new NMI for each connection"
            }
        case .nikFollowUp: nikFollowUp.description
        case .pinEntry:
            switch pinEntry {
            case .immediate: "typed at once"
            case .human(let seconds): "\(seconds.lowerBound)-\(seconds.upperBound) s, drawn from the test's seed"
            }
        case .discoveryWindow: "\(Int(discoveryWindow.seconds)) s"
        case .longTXTValues: longTXTValues.description
        case .pairingAsPublisher: pairingAsPublisher.description
        }
    }

    /// The profiles in `--phone`'s order.
    public static let all: [PhoneProfile] = Name.allCases.map(PhoneProfile.init)
}
