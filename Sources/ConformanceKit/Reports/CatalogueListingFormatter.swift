/// The text of `aware-conform list`: every test with its ID, group, tags and title, and when a profile
/// was given, whether it applies and why not.
public enum CatalogueListingFormatter {
    public static func render(_ entries: [CatalogueEntry]) -> String {
        let idWidth = max(2, entries.map { $0.test.id.description.count }.max() ?? 0)
        let groupWidth = max(5, entries.map { $0.test.group.count }.max() ?? 0)
        let withProfile = entries.contains { $0.applicability != nil }
        func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
        var text = pad("ID", idWidth) + "  " + pad("GROUP", groupWidth) + (withProfile ? "  APPLIES" : "") + "  TITLE\n"
        for entry in entries {
            let test = entry.test
            var line = pad(test.id.description, idWidth) + "  " + pad(test.group, groupWidth)
            if let applicability = entry.applicability {
                line += "  " + pad(applicability.isApplicable ? "yes" : "no", 7)
            }
            line += "  " + test.title
            if !test.tags.isEmpty { line += "  [" + test.tags.map(\.name).joined(separator: ", ") + "]" }
            text += line + "\n"
            if let reason = entry.applicability?.reason {
                text += String(repeating: " ", count: idWidth + 2) + "not applicable: \(reason)\n"
            }
        }
        let applicable = entries.count { $0.applicability?.isApplicable ?? false }
        text += "\n\(entries.count) test\(entries.count == 1 ? "" : "s")"
        text += withProfile ? ", \(applicable) applicable to the profile\n" : "\n"
        return text
    }
}
