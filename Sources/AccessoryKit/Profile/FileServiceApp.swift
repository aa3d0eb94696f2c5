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
