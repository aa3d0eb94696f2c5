/// The application the accessory runs over its data paths. Each part names the service it runs on.
public struct AppProfile: Codable, Hashable, Sendable {
    public var telemetry: TelemetryApp?
    public var fileService: FileServiceApp?
    public var audioStream: AudioStreamApp?
    public var control: ControlApp?

    public init(
        telemetry: TelemetryApp? = nil,
        fileService: FileServiceApp? = nil,
        audioStream: AudioStreamApp? = nil,
        control: ControlApp? = nil
    ) {
        self.telemetry = telemetry
        self.fileService = fileService
        self.audioStream = audioStream
        self.control = control
    }
}
