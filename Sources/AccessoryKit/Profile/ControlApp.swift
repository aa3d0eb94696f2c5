/// A request/response control channel (commands in, acknowledgements out).
public struct ControlApp: Codable, Hashable, Sendable {
    public var service: String
    public var port: Int?

    public init(service: String, port: Int? = nil) {
        self.service = service
        self.port = port
    }
}
