import AwareCore
import AwareWire
import Foundation

/// `aware-conform analyze`'s reading of a capture file: the two passes of a ``CaptureAnalysis``,
/// each reading the file record by record, so that neither the file nor its frames are ever
/// held, whatever the capture's size.
///
/// A capture cut short (a sniffer killed mid-write) still has its frames before the cut
/// analyzed: the error comes back beside the report. A file that cannot be read twice (a pipe,
/// a FIFO) has its records kept for the second pass; memory then grows with the capture.
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
        let first = try open(path)
        let isRegular =
            (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular
        var analysis = CaptureAnalysis(analyzer)
        var kept: [CaptureRecord]? = isRegular ? nil : []
        var stoppedBy: AnalysisInputError?
        do throws(CaptureFileError) {
            while let record = try first.next() {
                analysis.learn(record)
                kept?.append(record)
            }
        } catch {
            stoppedBy = AnalysisInputError(error, path: path)
            if analysis.learnedFrameCount == 0 { throw AnalysisInputError(error, path: path) }
        }
        if let kept {
            for record in kept { analysis.judge(record) }
        } else {
            // The second pass reads as many records as the first: a capture still growing (a
            // sniffer writing it) is analyzed as it was when the first pass ended.
            let second = try open(path)
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
        }
        return Outcome(format: first.format, report: analysis.report(), stoppedBy: stoppedBy)
    }

    /// Opens `path` as a capture. A missing file or a directory is the input's fault; a file
    /// the system refuses to read is the environment's.
    private static func open(_ path: String) throws(AnalysisInputError) -> CaptureFileReader {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .noSuchFile(path: path)
        }
        guard !isDirectory.boolValue else { throw .notACapture(path: path, firstOctets: []) }
        do {
            return try CaptureFileReader(path: path)
        } catch {
            throw AnalysisInputError(error, path: path)
        }
    }
}
