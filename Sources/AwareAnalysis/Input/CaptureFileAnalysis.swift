import AwareCore
import AwareWire
import Foundation

/// `aware-conform analyze`'s reading of a capture file: the two passes of a ``CaptureAnalysis``,
/// each reading the file record by record, so that neither the file nor its frames are ever
/// held, whatever the capture's size.
///
/// A capture cut short (a sniffer killed mid-write) still has its frames before the cut
/// analyzed: the error comes back beside the report. A file that cannot be read twice (a pipe,
/// a FIFO) is first copied, chunk by chunk, to a temporary file that both passes read and that
/// is removed afterwards (as `tshark -2` does with a pipe): it costs disk, not memory.
public enum CaptureFileAnalysis {
    /// What the analysis of a file gave.
    public struct Outcome: Sendable {
        public var format: CaptureReader.Format
        public var report: AnalysisReport
        /// Where the file stopped being readable, when it did: the frames before were analyzed.
        public var stoppedBy: AnalysisInputError?
    }

    /// Analyzes the capture at `path`. Throws when no frame at all can be read: no such file,
    /// not a capture, the system refusing it, or an error before the first record.
    public static func analyze(path: String, with analyzer: CaptureAnalyzer) throws(AnalysisInputError) -> Outcome {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .noSuchFile(path: path)
        }
        guard !isDirectory.boolValue else { throw .notACapture(path: path, firstOctets: []) }
        let isRegular =
            (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular
        guard !isRegular else { return try analyze(reading: path, naming: path, with: analyzer) }
        let spool = try copy(path)
        defer { unlink(spool) }
        return try analyze(reading: spool, naming: path, with: analyzer)
    }

    /// Both passes over the regular file `reading`; messages name `naming`.
    private static func analyze(
        reading: String,
        naming path: String,
        with analyzer: CaptureAnalyzer
    ) throws(AnalysisInputError) -> Outcome {
        let first = try open(reading, naming: path)
        var analysis = CaptureAnalysis(analyzer)
        var stoppedBy: AnalysisInputError?
        do throws(CaptureFileError) {
            while let record = try first.next() { analysis.learn(record) }
        } catch {
            stoppedBy = AnalysisInputError(error, path: path)
            if analysis.learnedFrameCount == 0 { throw AnalysisInputError(error, path: path) }
        }
        // The second pass reads as many records as the first: a capture still growing (a
        // sniffer writing it) is analyzed as it was when the first pass ended.
        let second = try open(reading, naming: path)
        do throws(CaptureFileError) {
            while analysis.judgedFrameCount < analysis.learnedFrameCount, let record = try second.next() {
                analysis.judge(record)
            }
        } catch {
            stoppedBy = stoppedBy ?? AnalysisInputError(error, path: path)
        }
        if analysis.judgedFrameCount < analysis.learnedFrameCount {
            stoppedBy = .changed(
                path: path,
                firstPass: analysis.learnedFrameCount,
                secondPass: analysis.judgedFrameCount
            )
        }
        return Outcome(format: first.format, report: analysis.report(), stoppedBy: stoppedBy)
    }

    /// Copies what `path` gives until its end into a new temporary file, and returns that file's
    /// path. Reading is the input's side (its errors name `path`); writing is the environment's.
    private static func copy(_ path: String) throws(AnalysisInputError) -> String {
        let spool = FileManager.default.temporaryDirectory
            .appendingPathComponent("aware-conform-analyze-\(getpid())-\(UUID().uuidString.prefix(8)).capture").path
        let input: FileChunks
        let output: AppendingFile
        do {
            input = try FileChunks(path: path)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        do {
            output = try AppendingFile(path: spool, mode: 0o600)
        } catch {
            throw .unreadable(path: spool, reason: "cannot keep a copy of \(path) for the second pass: \(error.reason)")
        }
        while true {
            let chunk: [UInt8]
            do {
                chunk = try input.next()
            } catch {
                unlink(spool)
                throw .unreadable(path: path, reason: error.reason)
            }
            if chunk.isEmpty { break }
            do {
                try output.append(chunk)
            } catch {
                unlink(spool)
                throw .unreadable(
                    path: spool,
                    reason: "cannot keep a copy of \(path) for the second pass: \(error.reason)"
                )
            }
        }
        try? output.close()
        return spool
    }

    /// Opens `path` as a capture. A missing file or a directory is the input's fault; a file
    /// the system refuses to read is the environment's.
    private static func open(_ reading: String, naming path: String) throws(AnalysisInputError) -> CaptureFileReader {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: reading, isDirectory: &isDirectory) else {
            throw .noSuchFile(path: path)
        }
        guard !isDirectory.boolValue else { throw .notACapture(path: path, firstOctets: []) }
        do {
            return try CaptureFileReader(path: reading)
        } catch {
            throw AnalysisInputError(error, path: path)
        }
    }
}
