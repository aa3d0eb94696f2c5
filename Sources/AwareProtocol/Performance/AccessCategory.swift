/// The four 802.11 EDCA access categories (IEEE 802.11-2020 10.2.3.2): what a data frame's
/// user priority selects, and how long it waits for the medium.
public enum AccessCategory: String, Hashable, Sendable, CaseIterable, Comparable {
    case background = "AC_BK"
    case bestEffort = "AC_BE"
    case video = "AC_VI"
    case voice = "AC_VO"

    /// The 802.1D user priorities that map to the category (IEEE 802.11-2020 Table 10-1).
    public var userPriorities: [UInt8] {
        switch self {
        case .background: [1, 2]
        case .bestEffort: [0, 3]
        case .video: [4, 5]
        case .voice: [6, 7]
        }
    }

    /// The TID a sender puts in the QoS Control field: the 802.1D priority named for the
    /// traffic (IEEE 802.1D Annex G): 1 Background, 0 Best Effort, 5 Video, 6 Voice (7 is
    /// network control, 2 spare, 3 excellent effort, 4 controlled load).
    public var tid: UInt8 {
        switch self {
        case .background: 1
        case .bestEffort: 0
        case .video: 5
        case .voice: 6
        }
    }

    /// The category of a user priority or TID (0-7); higher values wrap to their low 3 bits.
    public init(userPriority: UInt8) {
        switch userPriority & 0x07 {
        case 1, 2: self = .background
        case 0, 3: self = .bestEffort
        case 4, 5: self = .video
        default: self = .voice
        }
    }

    /// The default EDCA parameters of a non-AP station (IEEE 802.11-2020 Table 9-155, with
    /// aCWmin 15 and aCWmax 1023 of the OFDM PHYs).
    public var edca: EDCAParameters {
        switch self {
        case .background: EDCAParameters(aifsn: 7, cwMin: 15, cwMax: 1023)
        case .bestEffort: EDCAParameters(aifsn: 3, cwMin: 15, cwMax: 1023)
        case .video: EDCAParameters(aifsn: 2, cwMin: 7, cwMax: 15)
        case .voice: EDCAParameters(aifsn: 2, cwMin: 3, cwMax: 7)
        }
    }

    /// Ordered by urgency: background < best effort < video < voice.
    public static func < (lhs: AccessCategory, rhs: AccessCategory) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// How long a category waits before it may transmit (IEEE 802.11-2020 10.23.2.4).
public struct EDCAParameters: Hashable, Sendable {
    public var aifsn: Int
    public var cwMin: Int
    public var cwMax: Int

    public init(aifsn: Int, cwMin: Int, cwMax: Int) {
        self.aifsn = aifsn
        self.cwMin = cwMin
        self.cwMax = cwMax
    }

    /// AIFS = SIFS + AIFSN × slot time, in microseconds (OFDM 5 GHz / 2.4 GHz short slots:
    /// SIFS 16 µs on 5 GHz and 10 µs on 2.4 GHz, slot 9 µs).
    public func aifsMicroseconds(sifs: Int = 16, slot: Int = 9) -> Int { sifs + aifsn * slot }

    /// The mean wait before a first attempt on an idle medium: AIFS plus half the initial
    /// contention window, in microseconds.
    public func meanAccessDelayMicroseconds(sifs: Int = 16, slot: Int = 9) -> Double {
        Double(aifsMicroseconds(sifs: sifs, slot: slot)) + Double(cwMin) / 2 * Double(slot)
    }
}

/// The service class an app asks for on a Wi-Fi Aware connection (Apple's `WAAccessCategory`:
/// apple-peer-model.md 1.7), with the access category its frames use.
/// Raw values are Apple's names, as profiles spell them; ``commandLineName`` is the
/// `--class` spelling.
public enum ServiceClass: String, Codable, Hashable, Sendable, CaseIterable {
    case bestEffort
    case background
    case interactiveVideo
    case interactiveVoice

    /// `background`, `best-effort`, `interactive-video`, `interactive-voice`.
    public var commandLineName: String {
        switch self {
        case .background: "background"
        case .bestEffort: "best-effort"
        case .interactiveVideo: "interactive-video"
        case .interactiveVoice: "interactive-voice"
        }
    }

    /// The EDCA category (IEEE 802.11-2020 Table 10-1): background → AC_BK, best effort →
    /// AC_BE, interactive video → AC_VI, interactive voice → AC_VO.
    public var accessCategory: AccessCategory {
        switch self {
        case .background: .background
        case .bestEffort: .bestEffort
        case .interactiveVideo: .video
        case .interactiveVoice: .voice
        }
    }
}
