/// The IEEE 802.11 status codes a PASN exchange sends (IEEE 802.11-2020 Table 9-50;
/// nan-wire-reference.md 3.4.2).
public enum PASNStatusCode {
    public static let success: UInt16 = 0
    /// Unspecified failure: our abort after a failed check (hostap `nan_pairing_abort`).
    public static let unspecifiedFailure: UInt16 = 1
    /// The request was declined: pairing is locked after wrong PINs, or no PIN was shown.
    public static let requestDeclined: UInt16 = 37
    /// The PMKID (our NPKID) names no cached pairing.
    public static let invalidPMKID: UInt16 = 53
    /// The group is not supported (answered with a Supported Groups element).
    public static let unsupportedGroup: UInt16 = 77
    /// The AKM or cipher of the RSNE is not the one configured.
    public static let baseAKMPFailed: UInt16 = 137
}
