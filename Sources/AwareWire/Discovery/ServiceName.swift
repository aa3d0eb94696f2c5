/// A fully qualified Wi-Fi Aware service name as the phone requires it: `_` + name + `._tcp` or
/// `._udp`, where the name is 1-15 ASCII letters, digits and hyphens with at least one letter and
/// no hyphen at either end (apple-peer-model.md 1.3, after RFC 6763 4.1.2 and RFC 6335 5.1).
///
/// Apple's list leaves out RFC 6335's "no adjacent hyphens" rule and says nothing of case, so
/// `--` is accepted and the string is kept exactly as written: the phone compares it byte for byte.
public struct ServiceName: Hashable, Sendable, CustomStringConvertible {
    /// The transport named by the protocol suffix.
    public enum TransportProtocol: String, Hashable, Sendable {
        case tcp
        case udp

        /// The IANA protocol number (6 TCP, 17 UDP), as a Generic Service Protocol's Transport
        /// Protocol sub-attribute carries it (Android `WifiAwareNetworkInfo.getTransportProtocol`).
        public var ipProtocolNumber: UInt8 {
            switch self {
            case .tcp: 6
            case .udp: 17
            }
        }

        /// The transport with IANA protocol number `number`; nil for any other protocol.
        public init?(ipProtocolNumber number: UInt8) {
            switch number {
            case 6: self = .tcp
            case 17: self = .udp
            default: return nil
            }
        }
    }

    public static let maximumNameLength = 15

    /// The whole name, as sent over the air (`_drone-service._udp`).
    public let string: String
    /// The name component, without the underscore and suffix (`drone-service`).
    public let name: String
    public let transportProtocol: TransportProtocol

    public init(_ string: String) throws(ServiceNameError) {
        guard string.hasPrefix("_") else { throw .missingLeadingUnderscore }
        let transport: TransportProtocol
        if string.hasSuffix("._tcp") {
            transport = .tcp
        } else if string.hasSuffix("._udp") {
            transport = .udp
        } else {
            throw .missingProtocolSuffix
        }
        let scalars = Array(string.unicodeScalars)
        // "_" + name + "._tcp": at least 6 scalars for the frame; `_._tcp` has an empty name.
        guard scalars.count > 6 else { throw .emptyName }
        let nameScalars = scalars[1..<(scalars.count - 5)]
        var name = String.UnicodeScalarView()
        name.append(contentsOf: nameScalars)
        let nameString = String(name)
        for character in nameString where !Self.isAllowed(character) {
            throw .invalidCharacter(character)
        }
        guard nameScalars.count <= Self.maximumNameLength else {
            throw .nameTooLong(characters: nameScalars.count)
        }
        guard nameScalars.contains(where: Self.isLetter) else { throw .noLetter }
        guard nameScalars.first != "-", nameScalars.last != "-" else { throw .hyphenAtEdge }
        self.string = string
        self.name = nameString
        self.transportProtocol = transport
    }

    public var description: String { string }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isAllowed(_ character: Character) -> Bool {
        guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first else {
            return false
        }
        return isLetter(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
    }
}

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
