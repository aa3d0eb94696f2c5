/// The PIN the accessory displays and the phone's user types (PIN display bootstrapping,
/// nan-wire-reference.md 3.2; it becomes the SAE password, 3.4).
///
/// The digits are a secret until shown: `description`, `debugDescription` and `dump()` say only
/// how many there are. The display path reads them through `digits`.
public struct PINCode: Hashable, Sendable {
    public static let lengths: ClosedRange<Int> = 4...8

    /// The digits, ASCII "0"-"9". Read only to show them to a person or to use them as the password.
    public let digits: String

    public var length: Int { digits.utf8.count }

    /// A profile's fixed PIN (`pairing.pin.fixed`).
    public init(fixed: String) throws(PINCodeError) {
        guard fixed.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw .notDigits
        }
        guard Self.lengths.contains(fixed.utf8.count) else { throw .notDigits }
        digits = fixed
    }

    /// `length` digits, each drawn uniformly from `generator`.
    public init(length: Int, using generator: inout some RandomNumberGenerator) throws(PINCodeError) {
        guard Self.lengths.contains(length) else { throw .lengthOutOfRange(length) }
        var text: [UInt8] = []
        while text.count < length {
            // One octet per try; octets 250-255 are drawn again. Taking `% 10` of all 256 would
            // make 0-5 likelier than 6-9 (26 ways against 25): rejection keeps every digit at 25.
            let octet = UInt8(truncatingIfNeeded: generator.next())
            guard octet < 250 else { continue }
            text.append(UInt8(ascii: "0") + octet % 10)
        }
        digits = String(decoding: text, as: UTF8.self)
    }

    /// `length` digits from the system's CSPRNG.
    public init(length: Int) throws(PINCodeError) {
        var generator = SystemRandomNumberGenerator()
        try self.init(length: length, using: &generator)
    }

    /// The profile's fixed PIN, or a fresh one of the profile's length from the system's CSPRNG.
    public init(policy: PinPolicy) throws(PINCodeError) {
        if let fixed = policy.fixed {
            try self.init(fixed: fixed)
        } else {
            try self.init(length: policy.length)
        }
    }
}

extension PINCode: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "PIN(\(length) digits)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["length": length], displayStyle: .struct) }
}
