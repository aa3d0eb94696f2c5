import Foundation

/// Writes a sealed context's evidence. Files are written whole after the test ends (or the guard
/// fires), so a kept directory always holds complete, parseable files.
struct EvidenceWriter: Sendable {
    func write(_ snapshot: EvidenceSnapshot, to directory: String) throws -> EvidenceFiles {
        let files = FileManager.default
        try files.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let events = EvidenceLayout.join(directory, EvidenceLayout.eventsFile)
        let capture = EvidenceLayout.join(directory, EvidenceLayout.captureFile)
        try Data(snapshot.eventsJSONL.utf8).write(to: URL(fileURLWithPath: events), options: .atomic)
        try Data(snapshot.pcap).write(to: URL(fileURLWithPath: capture), options: .atomic)
        var attachments: [String] = []
        for name in snapshot.attachments.keys.sorted() {
            let path = EvidenceLayout.join(directory, name)
            try Data(snapshot.attachments[name] ?? []).write(to: URL(fileURLWithPath: path), options: .atomic)
            attachments.append(path)
        }
        return EvidenceFiles(directory: directory, events: events, capture: capture, attachments: attachments)
    }
}
