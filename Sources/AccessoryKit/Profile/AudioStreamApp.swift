/// A PCM audio sink or source in fixed-length frames.
public struct AudioStreamApp: Codable, Hashable, Sendable {
    public var service: String
    public var port: Int?
    public var sampleRateHz: Int
    public var channels: Int
    public var frameMs: Int

    public init(service: String, port: Int? = nil, sampleRateHz: Int, channels: Int, frameMs: Int = 10) {
        self.service = service
        self.port = port
        self.sampleRateHz = sampleRateHz
        self.channels = channels
        self.frameMs = frameMs
    }
}
