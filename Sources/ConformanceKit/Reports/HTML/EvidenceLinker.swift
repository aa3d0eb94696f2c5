import Foundation

/// Turns the evidence paths of a report (relative to the directory the run ran in, or absolute)
/// into links relative to the page, so the page and its evidence directory can be copied or
/// archived together (a CI artifact) and the links still work.
struct EvidenceLinker: Sendable {
    /// Absolute, without a trailing slash.
    var pageDirectory: String
    var workingDirectory: String

    init(pagePath: String, workingDirectory: String) {
        self.workingDirectory = workingDirectory
        let page = Self.absolute(pagePath, workingDirectory: workingDirectory)
        pageDirectory = (page as NSString).deletingLastPathComponent
    }

    static func absolute(_ path: String, workingDirectory: String) -> String {
        let joined = path.hasPrefix("/") ? path : (workingDirectory as NSString).appendingPathComponent(path)
        return (joined as NSString).standardizingPath
    }

    /// The `href` of `path`: relative to the page, each segment percent-encoded.
    func href(_ path: String) -> String {
        let target = Self.segments(Self.absolute(path, workingDirectory: workingDirectory))
        let base = Self.segments(pageDirectory)
        var common = 0
        while common < min(target.count, base.count) && target[common] == base[common] { common += 1 }
        let segments = Array(repeating: "..", count: base.count - common) + target[common...].map(Self.encode)
        let relative = segments.joined(separator: "/")
        // "a:b/..." would read as a URL scheme; "./" keeps it a path.
        return relative.isEmpty ? "." : (segments.first?.contains(":") == true ? "./" + relative : relative)
    }

    static func segments(_ path: String) -> [String] { path.split(separator: "/").map(String.init) }

    static func encode(_ segment: String) -> String {
        // RFC 3986 pchar, ASCII only: everything else is percent-encoded.
        let allowed = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@"
        )
        return segment.addingPercentEncoding(withAllowedCharacters: allowed) ?? segment
    }
}
