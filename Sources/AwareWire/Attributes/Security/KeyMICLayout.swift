/// Whether a NAN key descriptor carries a Key MIC field, and how long it is
/// (nan-wire-reference.md 2.15, 3.9).
///
/// NDP m1..m4 carry one (16 octets for the -128 suites, 24 for the -256 suites), and so do
/// ESP-IDF's NIK messages; hostap's NIK message has none: Key ID is followed directly by
/// Key Data Length. The spec text was not available to settle it, so a receiver works it
/// out from the lengths (``RSNAKeyDescriptor/consistentMICLayouts(afterKeyID:)``).
public enum KeyMICLayout: Hashable, Sendable, CaseIterable {
    case absent
    case octets16
    case octets24

    public var length: Int {
        switch self {
        case .absent: 0
        case .octets16: 16
        case .octets24: 24
        }
    }

    /// The order a receiver tries the layouts in, and the preference when the lengths fit
    /// more than one: MIC-bearing layouts first, since every NDP message and ESP-IDF's NIK
    /// message carry a MIC; the MIC-less form is hostap's NIK message only.
    public static let detectionOrder: [KeyMICLayout] = [.octets16, .octets24, .absent]

    public var name: String {
        switch self {
        case .absent: "No Key MIC field"
        case .octets16: "16-octet Key MIC"
        case .octets24: "24-octet Key MIC"
        }
    }
}
