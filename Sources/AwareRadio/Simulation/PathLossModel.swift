import AwareWire
import Foundation

/// How signal strength falls with distance on the simulated air: the log-distance path loss
/// model with optional log-normal shadowing (Rappaport, "Wireless Communications", 2nd ed.,
/// 4.9.1 and 4.9.2; the same form as ITU-R P.1238's indoor model):
///
///     PL(d) = PL(d0) + 10 · n · log10(d / d0) + X_σ      with d0 = 1 m
///
/// PL(d0) is free-space (Friis) loss at 1 m, 20·log10(f_MHz) − 27.55 dB: 40.2 dB at 2437 MHz
/// (channel 6), 47.6 dB at 5745 MHz (channel 149). The exponent n is 2 in free space and
/// about 3 indoors with walls and furniture (Rappaport Table 4.2 gives 1.6–3.3 for
/// buildings), the default here. X_σ is a zero-mean Gaussian in dB, drawn once per link
/// from the air's seed and the two stations' addresses, so it stays the same for the whole
/// run and in both directions. Closer than d0 the loss is PL(d0).
public struct PathLossModel: Hashable, Sendable {
    /// The path loss exponent n.
    public var exponent: Double
    /// Standard deviation of the per-link shadowing in dB; 0 turns shadowing off.
    public var shadowingSigmaDB: Double
    /// PL(d0) in dB when set; nil means free-space loss at 1 m for the frame's frequency.
    public var referenceLossDB: Double?

    public init(exponent: Double = 3.0, shadowingSigmaDB: Double = 0, referenceLossDB: Double? = nil) {
        self.exponent = exponent
        self.shadowingSigmaDB = max(0, shadowingSigmaDB)
        self.referenceLossDB = referenceLossDB
    }

    /// Indoors, n = 3, no shadowing.
    public static let indoor = PathLossModel()
    /// Free space, n = 2.
    public static let freeSpace = PathLossModel(exponent: 2)

    public static let referenceDistance = 1.0

    /// Free-space path loss at 1 m: 20·log10(f_MHz) − 27.55 dB (Friis, with d in metres and
    /// f in MHz).
    public static func freeSpaceLossAtOneMetre(frequencyMHz: Double) -> Double {
        20 * log10(frequencyMHz) - 27.55
    }

    /// Path loss in dB over `distance` metres at `frequencyMHz`, before shadowing.
    public func loss(distance: Double, frequencyMHz: Double) -> Double {
        let reference = referenceLossDB ?? Self.freeSpaceLossAtOneMetre(frequencyMHz: frequencyMHz)
        guard distance > Self.referenceDistance else { return reference }
        return reference + 10 * exponent * log10(distance / Self.referenceDistance)
    }

    /// Received power in dBm for `transmitPowerDBm` over `distance` (no shadowing).
    public func receivedPower(transmitPowerDBm: Double, distance: Double, frequencyMHz: Double) -> Double {
        transmitPowerDBm - loss(distance: distance, frequencyMHz: frequencyMHz)
    }
}
