/// Why a string is not a service name the phone accepts (apple-peer-model.md 1.3).
///
/// The descriptions are the rule in plain words; callers add where the name came from.
public enum ServiceNameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The fully qualified name does not start with `_`.
    case missingLeadingUnderscore
    /// The name does not end with `._tcp` or `._udp`.
    case missingProtocolSuffix
    /// Nothing between the leading `_` and the protocol suffix.
    case emptyName
    /// The name component has more than 15 characters.
    case nameTooLong(characters: Int)
    /// The name component holds something other than ASCII letters, digits and hyphens.
    case invalidCharacter(Character)
    /// The name component has no letter.
    case noLetter
    /// The name component starts or ends with a hyphen.
    case hyphenAtEdge

    public var description: String {
        switch self {
        case .missingLeadingUnderscore:
            return "must start with an underscore, as in `_name._tcp` or `_name._udp`"
        case .missingProtocolSuffix:
            return "must end with `._tcp` or `._udp`"
        case .emptyName:
            return "the name between `_` and the protocol suffix is empty"
        case .nameTooLong(let characters):
            return "the name has \(characters) characters; at most 15 are allowed"
        case .invalidCharacter:
            return "only letters, digits and hyphens are allowed"
        case .noLetter:
            return "the name must contain at least one letter"
        case .hyphenAtEdge:
            return "the name must not start or end with a hyphen"
        }
    }
}
