import AwareCore
import AwareWire
import Foundation

extension FaultPlan {
    /// Reads a plan (docs/reference/fault-plans.md). Every error names `file`, the JSON path and what is
    /// wrong; members a step does not know are refused, so a typo never passes silently.
    public static func parse(_ data: Data, file: String) throws(FaultPlanError) -> FaultPlan {
        guard data.count <= 1 << 20 else {
            throw FaultPlanError(
                file: file,
                path: "",
                problem: "larger than 1 MiB; a fault plan is a short list of steps"
            )
        }
        let document: JSONValue
        do {
            document = try JSONValue(parsing: data)
        } catch {
            throw FaultPlanError(file: file, path: "", problem: "not JSON at \(error)")
        }
        let root = PlanObject(value: document, path: "", file: file)
        let object = try root.object()
        try root.refuseUnknown(in: object, known: ["$schema", "faultPlan", "description", "steps"])
        let version = try root.member("faultPlan", in: object).integer(in: 1...Int.max)
        guard version == Self.version else {
            throw root.problem(at: "faultPlan", "version \(version) is newer than this build reads (\(Self.version))")
        }
        var description: String?
        if let value = object["description"] { description = try root.child("description", value).string() }
        let list = try root.member("steps", in: object).array()
        guard !list.isEmpty else { throw root.problem(at: "steps", "a plan needs at least one step") }
        var steps: [FaultStep] = []
        for (index, value) in list.enumerated() {
            steps.append(try step(PlanObject(value: value, path: "steps[\(index)]", file: file), number: index + 1))
        }
        return FaultPlan(description: description, steps: steps)
    }

    private static func step(_ node: PlanObject, number: Int) throws(FaultPlanError) -> FaultStep {
        let object = try node.object()
        let actionName = try node.member("action", in: object).string()
        var known: Set<String> = ["action", "tests", "description"]
        var tests: [TestPattern] = []
        if let value = object["tests"] {
            for (index, pattern) in try node.child("tests", value).array().enumerated() {
                tests.append(TestPattern(try node.child("tests[\(index)]", pattern).string()))
            }
        }
        let action: FaultAction
        switch actionName {
        case "drop":
            known.formUnion(["frame", "from", "nth", "attempts"])
            var attempts = "first"
            if let value = object["attempts"] { attempts = try node.child("attempts", value).string() }
            guard attempts == "first" || attempts == "all" else {
                throw node.problem(at: "attempts", "\"\(attempts)\" is not first or all")
            }
            action = .drop(try selector(node, object), everyAttempt: attempts == "all")
        case "delay":
            known.formUnion(["frame", "from", "nth", "milliseconds"])
            let milliseconds = try node.member("milliseconds", in: object).integer(in: 1...60_000)
            action = .delay(try selector(node, object), by: .milliseconds(Int64(milliseconds)))
        case "corrupt":
            known.formUnion(["frame", "from", "nth", "attribute", "field", "occurrence", "xor", "set"])
            let attribute = try node.member("attribute", in: object).string()
            let fieldName = try node.member("field", in: object).string()
            guard let field = FaultField.named(attribute: attribute, field: fieldName) else {
                let known = FaultField.known.map { "\($0.attribute) (\($0.fields.joined(separator: ", ")))" }
                throw node.problem(
                    at: "field",
                    "\(attribute).\(fieldName) is not a field a plan can corrupt; known: \(known.joined(separator: "; "))"
                )
            }
            var occurrence = 1
            if let value = object["occurrence"] { occurrence = try node.child("occurrence", value).integer(in: 1...64) }
            let change: FaultFieldChange
            switch (object["xor"], object["set"]) {
            case (.some, .some): throw node.problem(at: "set", "give xor or set, not both")
            case (.some(let value), nil): change = .xor(try node.child("xor", value).hex(nonEmpty: true))
            case (nil, .some(let value)):
                let octets = try node.child("set", value).hex(nonEmpty: true)
                if let length = field.length, octets.count != length {
                    throw node.problem(at: "set", "\(field) has \(length) octets, not \(octets.count)")
                }
                change = .set(octets)
            case (nil, nil): change = .xor([0xFF])
            }
            action = .corrupt(try selector(node, object), field: field, occurrence: occurrence, change: change)
        case "reboot":
            known.formUnion(["after"])
            action = .reboot(after: try milestone(node, object))
        case "out-of-range":
            known.formUnion(["after", "seconds"])
            var seconds: Int?
            if let value = object["seconds"] { seconds = try node.child("seconds", value).integer(in: 1...3_600) }
            action = .outOfRange(after: try milestone(node, object), duration: seconds.map { .seconds(Int64($0)) })
        default:
            throw node.problem(
                at: "action",
                "\"\(actionName)\" is not an action; known: drop, delay, corrupt, reboot, out-of-range"
            )
        }
        try node.refuseUnknown(in: object, known: known)
        return FaultStep(number: number, tests: tests, action: action)
    }

    private static func selector(
        _ node: PlanObject,
        _ object: [String: JSONValue]
    ) throws(FaultPlanError) -> FaultFrameSelector {
        let kindName = try node.member("frame", in: object).string()
        guard let kind = FaultFrameKind(rawValue: kindName) else {
            let known = FaultFrameKind.allCases.map(\.rawValue).joined(separator: ", ")
            throw node.problem(at: "frame", "\"\(kindName)\" is not a frame kind; known: \(known)")
        }
        var senderName = "any"
        if let value = object["from"] { senderName = try node.child("from", value).string() }
        guard let sender = FaultFrameSender(rawValue: senderName) else {
            throw node.problem(at: "from", "\"\(senderName)\" is not phone, accessory or any")
        }
        var nth: Int? = 1
        if let value = object["nth"] {
            let child = node.child("nth", value)
            if let word = value.stringValue {
                guard word == "every" else { throw child.problem("\"\(word)\" is not a number or \"every\"") }
                nth = nil
            } else {
                nth = try child.integer(in: 1...100_000)
            }
        }
        return FaultFrameSelector(kind: kind, sender: sender, nth: nth)
    }

    private static func milestone(
        _ node: PlanObject,
        _ object: [String: JSONValue]
    ) throws(FaultPlanError) -> FaultMilestone {
        let name = try node.member("after", in: object).string()
        guard let milestone = FaultMilestone(rawValue: name) else {
            let known = FaultMilestone.allCases.map(\.rawValue).joined(separator: ", ")
            throw node.problem(at: "after", "\"\(name)\" is not a moment of the test; known: \(known)")
        }
        return milestone
    }
}

/// One JSON value of a plan and where it sits, for errors that say where.
private struct PlanObject {
    var value: JSONValue
    var path: String
    var file: String

    func child(_ key: String, _ value: JSONValue) -> PlanObject {
        PlanObject(value: value, path: path.isEmpty ? key : "\(path).\(key)", file: file)
    }

    func problem(_ text: String) -> FaultPlanError { FaultPlanError(file: file, path: path, problem: text) }

    func problem(at key: String, _ text: String) -> FaultPlanError { child(key, .null).problem(text) }

    /// The members by key (the parser refuses a key given twice).
    func object() throws(FaultPlanError) -> [String: JSONValue] {
        guard let members = value.objectValue else { throw problem("expected an object") }
        return Dictionary(members, uniquingKeysWith: { first, _ in first })
    }

    func member(_ key: String, in object: [String: JSONValue]) throws(FaultPlanError) -> PlanObject {
        guard let value = object[key] else { throw problem(at: key, "missing") }
        return child(key, value)
    }

    func refuseUnknown(in object: [String: JSONValue], known: Set<String>) throws(FaultPlanError) {
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw problem(at: unknown, "not a member here (known: \(known.sorted().joined(separator: ", ")))")
        }
    }

    func string() throws(FaultPlanError) -> String {
        guard let text = value.stringValue, text.utf8.count <= 4_096 else { throw problem("expected a string") }
        return text
    }

    func array() throws(FaultPlanError) -> [JSONValue] {
        guard let list = value.arrayValue, list.count <= 10_000 else { throw problem("expected a list") }
        return list
    }

    func integer(in range: ClosedRange<Int>) throws(FaultPlanError) -> Int {
        guard let number = value.integerValue.flatMap({ Int(exactly: $0) }), range.contains(number) else {
            throw problem("expected an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    func hex(nonEmpty: Bool) throws(FaultPlanError) -> [UInt8] {
        let text = try string().replacingOccurrences(of: " ", with: "")
        guard text.count.isMultiple(of: 2), !nonEmpty || !text.isEmpty, text.count <= 512,
            let octets = HexString.decode(text)
        else { throw problem("expected hex octets, such as \"ff\" or \"00 01\"") }
        return octets
    }
}
