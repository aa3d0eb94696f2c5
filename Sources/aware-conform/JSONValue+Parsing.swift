import AwareCore
import AwareWire
import Foundation

extension JSONValue {
    /// The JSON value of `text`, or nil when it is not JSON. Object members come out sorted by
    /// key (JSONDecoder does not keep their order); integers stay integers and `true` stays a bool.
    init?(parsing text: String) {
        guard let decoded = try? JSONDecoder().decode(DecodedJSON.self, from: Data(text.utf8)) else { return nil }
        self = decoded.value
    }
}

/// Any JSON document, decoded into a ``JSONValue``.
private struct DecodedJSON: Decodable {
    let value: JSONValue

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            value = .object(
                try object.allKeys.sorted { $0.stringValue < $1.stringValue }.map { key in
                    (key.stringValue, try object.decode(DecodedJSON.self, forKey: key).value)
                }
            )
            return
        }
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(DecodedJSON.self).value) }
            value = .array(elements)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            value = .null
        } else if let bool = try? single.decode(Bool.self) {
            value = .bool(bool)
        } else if let integer = try? single.decode(Int64.self) {
            value = .integer(integer)
        } else if let double = try? single.decode(Double.self) {
            value = .double(double)
        } else {
            value = .string(try single.decode(String.self))
        }
    }
}
