/// Why a PIN cannot be made.
public enum PINCodeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// PINs have 4 to 8 digits (profile `pairing.pin.length`).
    case lengthOutOfRange(Int)
    /// A fixed PIN must be 4 to 8 ASCII digits; the text is not repeated here, it is a secret.
    case notDigits

    public var description: String {
        switch self {
        case .lengthOutOfRange(let length): "a PIN has 4 to 8 digits, not \(length)"
        case .notDigits: "a fixed PIN must be 4 to 8 digits 0-9"
        }
    }
}
