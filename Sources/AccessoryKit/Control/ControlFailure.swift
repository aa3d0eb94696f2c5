/// A well-formed control request the accessory could not carry out (a service it does not
/// publish, a state directory it cannot write): the reply's `error`, with a stable `code`.
public struct ControlFailure: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public init(_ error: ControlRequestError) {
        self.init(code: error.code, message: error.description)
    }

    public var description: String { message }
}
