/// The application the accessory runs over its data paths. Each part names the service it runs on.
public struct AppProfile: Codable, Hashable, Sendable {
    public var telemetry: TelemetryApp?
    public var fileService: FileServiceApp?
    public var audioStream: AudioStreamApp?
    public var control: ControlApp?
    /// The accessory speaks the bench's own application protocol on its data service (ping,
    /// streams on request, its performance report, the file service's transfers;
    /// docs/reference/profile-reference.md). Off, what the runner judges on a data path is
    /// standard traffic only: neighbour discovery, echo, TCP to a `_tcp` port, and the UDP the
    /// profile says the accessory sends. Absent means false: a maker's device declares it.
    public var benchProtocol: Bool

    public init(
        telemetry: TelemetryApp? = nil,
        fileService: FileServiceApp? = nil,
        audioStream: AudioStreamApp? = nil,
        control: ControlApp? = nil,
        benchProtocol: Bool = false
    ) {
        self.telemetry = telemetry
        self.fileService = fileService
        self.audioStream = audioStream
        self.control = control
        self.benchProtocol = benchProtocol
    }

    private enum CodingKeys: String, CodingKey {
        case telemetry, fileService, audioStream, control, benchProtocol
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        telemetry = try container.decodeIfPresent(TelemetryApp.self, forKey: .telemetry)
        fileService = try container.decodeIfPresent(FileServiceApp.self, forKey: .fileService)
        audioStream = try container.decodeIfPresent(AudioStreamApp.self, forKey: .audioStream)
        control = try container.decodeIfPresent(ControlApp.self, forKey: .control)
        benchProtocol = try container.decodeIfPresent(Bool.self, forKey: .benchProtocol) ?? false
    }
}

// MARK: - TelemetryApp

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

// MARK: - FileServiceApp

/// A file server offering the listed files, like Apple's `_file-service._tcp` examples.
public struct FileServiceApp: Codable, Hashable, Sendable {
    public struct File: Codable, Hashable, Sendable {
        public var name: String
        public var sizeBytes: Int

        public init(name: String, sizeBytes: Int) {
            self.name = name
            self.sizeBytes = sizeBytes
        }
    }

    public var service: String
    public var port: Int?
    public var files: [File]

    public init(service: String, port: Int? = nil, files: [File]) {
        self.service = service
        self.port = port
        self.files = files
    }
}

// MARK: - AudioStreamApp

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

// MARK: - ControlApp

/// A request/response control channel (commands in, acknowledgements out).
public struct ControlApp: Codable, Hashable, Sendable {
    public var service: String
    public var port: Int?

    public init(service: String, port: Int? = nil) {
        self.service = service
        self.port = port
    }
}
