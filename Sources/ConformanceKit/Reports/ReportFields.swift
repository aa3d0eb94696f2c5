import Foundation

/// One JSON object of a report read back, with typed accessors whose errors name the key by its
/// dotted path (`run.seed`, `tests[3].verdict`), so a malformed report says where it is wrong.
struct ReportFields {
    let object: [String: Any]
    /// The object's own path; empty for the document.
    let path: String
    let file: String

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func problem(_ reason: String) -> RunReportMergeError { .notAReport(file: file, reason: reason) }

    func value(_ key: String) throws(RunReportMergeError) -> Any {
        guard let value = object[key] else { throw problem("missing key \(name(key))") }
        return value
    }

    func expected(_ key: String, _ kind: String) -> RunReportMergeError {
        problem("key \(name(key)) is not \(kind)")
    }

    func string(_ key: String) throws(RunReportMergeError) -> String {
        guard let text = try value(key) as? String else { throw expected(key, "a string") }
        return text
    }

    func optionalString(_ key: String) throws(RunReportMergeError) -> String? {
        let value = try value(key)
        if value is NSNull { return nil }
        guard let text = value as? String else { throw expected(key, "a string or null") }
        return text
    }

    func bool(_ key: String) throws(RunReportMergeError) -> Bool {
        guard let flag = try value(key) as? Bool else { throw expected(key, "true or false") }
        return flag
    }

    func integer(_ key: String, minimum: Int) throws(RunReportMergeError) -> Int {
        guard let number = try value(key) as? Int, number >= minimum else {
            throw expected(key, "an integer of at least \(minimum)")
        }
        return number
    }

    func seconds(_ key: String) throws(RunReportMergeError) -> Double {
        guard let number = try value(key) as? Double, number.isFinite, number >= 0 else {
            throw expected(key, "a number of seconds")
        }
        return number
    }

    func optionalSeconds(_ key: String) throws(RunReportMergeError) -> Double? {
        let value = try value(key)
        if value is NSNull { return nil }
        guard let number = value as? Double, number.isFinite, number >= 0 else {
            throw expected(key, "a number of seconds or null")
        }
        return number
    }

    /// Seeds are decimal strings (docs/reference/reports.md, "Seeds").
    func seed(_ key: String) throws(RunReportMergeError) -> UInt64 {
        guard let seed = UInt64(try string(key)) else { throw expected(key, "a 64-bit seed in decimal") }
        return seed
    }

    func timestamp(_ key: String) throws(RunReportMergeError) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"
        guard let date = formatter.date(from: try string(key)) else {
            throw expected(key, "a timestamp like 2026-05-12T14:15:03.123Z")
        }
        return date
    }

    func fields(_ key: String) throws(RunReportMergeError) -> ReportFields {
        guard let object = try value(key) as? [String: Any] else { throw expected(key, "an object") }
        return ReportFields(object: object, path: name(key), file: file)
    }

    func optionalFields(_ key: String) throws(RunReportMergeError) -> ReportFields? {
        let value = try value(key)
        if value is NSNull { return nil }
        guard let object = value as? [String: Any] else { throw expected(key, "an object or null") }
        return ReportFields(object: object, path: name(key), file: file)
    }

    func strings(_ key: String) throws(RunReportMergeError) -> [String] {
        guard let list = try value(key) as? [Any] else { throw expected(key, "a list") }
        var strings: [String] = []
        for (index, element) in list.enumerated() {
            guard let text = element as? String else { throw expected("\(key)[\(index)]", "a string") }
            strings.append(text)
        }
        return strings
    }

    func list(_ key: String) throws(RunReportMergeError) -> [ReportFields] {
        guard let list = try value(key) as? [Any] else { throw expected(key, "a list") }
        var objects: [ReportFields] = []
        for (index, element) in list.enumerated() {
            guard let object = element as? [String: Any] else { throw expected("\(key)[\(index)]", "an object") }
            objects.append(ReportFields(object: object, path: name("\(key)[\(index)]"), file: file))
        }
        return objects
    }
}
