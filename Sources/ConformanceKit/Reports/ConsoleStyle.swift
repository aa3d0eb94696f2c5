import Foundation

/// Whether the console paints verdicts: only on a terminal, and never when NO_COLOR is set to anything
/// but the empty string (no-color.org), so logs captured by CI stay plain text.
public struct ConsoleStyle: Hashable, Sendable {
    public var colour: Bool

    public init(colour: Bool) {
        self.colour = colour
    }

    public static let plain = ConsoleStyle(colour: false)

    public static func detect(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        isTerminal: Bool = isatty(STDOUT_FILENO) == 1
    ) -> ConsoleStyle {
        let noColour = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return ConsoleStyle(colour: isTerminal && !noColour)
    }

    func paint(_ text: String, _ verdict: TestVerdict) -> String {
        guard colour else { return text }
        let code =
            switch verdict {
            case .pass: "32"
            case .fail: "31"
            case .skip: "33"
            case .error: "35"
            case .timeout: "1;31"
            }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }

    func bold(_ text: String) -> String { colour ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
}
