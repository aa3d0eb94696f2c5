/// A stream of fixed-size telemetry datagrams at a fixed rate, like the sample's drone.
public struct TelemetryApp: Codable, Hashable, Sendable {
    public var service: String
    public var port: Int?
    public var rateHz: Double
    public var payloadBytes: Int

    public init(service: String, port: Int? = nil, rateHz: Double, payloadBytes: Int) {
        self.service = service
        self.port = port
        self.rateHz = rateHz
        self.payloadBytes = payloadBytes
    }
}
