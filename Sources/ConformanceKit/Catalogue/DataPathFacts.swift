/// What the profile declares about data paths, for the `WA/NDP` and `WA/PERF` tests
/// (apple-peer-model.md 1.7, 5.17). Filled by the `aware-conform` executable from the profile.
public struct DataPathFacts: Hashable, Sendable {
    /// A stream of telemetry datagrams the accessory sends on every data path.
    public struct Telemetry: Hashable, Sendable {
        public var service: String
        public var rateHz: Double
        public var payloadBytes: Int
        public init(service: String, rateHz: Double, payloadBytes: Int) {
            self.service = service
            self.rateHz = rateHz
            self.payloadBytes = payloadBytes
        }
    }

    /// A `_file-service._tcp` style file server.
    public struct FileService: Hashable, Sendable {
        public var service: String
        public var port: Int
        public var files: [File]
        public init(service: String, port: Int, files: [File]) {
            self.service = service
            self.port = port
            self.files = files
        }
    }

    public struct File: Hashable, Sendable {
        public var name: String
        public var size: Int
        public init(name: String, size: Int) {
            self.name = name
            self.size = size
        }
    }

    /// The first service that takes data paths, and its application port.
    public var service: String
    public var port: Int
    /// The accessory listener's mode when the profile is not changed ("bulk" or "realtime").
    public var defaultMode: String
    /// The modes the profile offers, with the service class (its raw value) of each.
    public var serviceClasses: [String: String]
    public var realtimeMaxLatencyMs: Double?
    public var bulkMinThroughputMbps: Double?
    /// The profile accepts data paths without security.
    public var allowsOpen: Bool
    public var telemetry: Telemetry?
    public var fileService: FileService?

    public init(
        service: String,
        port: Int,
        defaultMode: String,
        serviceClasses: [String: String],
        realtimeMaxLatencyMs: Double? = nil,
        bulkMinThroughputMbps: Double? = nil,
        allowsOpen: Bool = false,
        telemetry: Telemetry? = nil,
        fileService: FileService? = nil
    ) {
        self.service = service
        self.port = port
        self.defaultMode = defaultMode
        self.serviceClasses = serviceClasses
        self.realtimeMaxLatencyMs = realtimeMaxLatencyMs
        self.bulkMinThroughputMbps = bulkMinThroughputMbps
        self.allowsOpen = allowsOpen
        self.telemetry = telemetry
        self.fileService = fileService
    }

    public var modes: [String] { serviceClasses.keys.sorted() }
}
