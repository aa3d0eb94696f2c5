import AwareCore
import AwareWire

extension ProfileReader {
    /// `subscriptions`: the services the accessory subscribes to in the reverse role
    /// (``SubscriptionProfile``). It pairs as the initiator there, so `pairing` is required.
    mutating func readSubscriptions(_ root: ObjectView) -> [SubscriptionProfile]? {
        guard let items = array(root, "subscriptions", minItems: 1) else { return nil }
        let listPath = root.path("subscriptions")
        var valid = true
        if items.count > SubscriptionProfile.maximumCount {
            report(
                listPath,
                root["subscriptions"],
                "lists \(items.count) services; at most \(SubscriptionProfile.maximumCount) are allowed"
            )
            valid = false
        }
        if !root.has("pairing") {
            report(
                root.path("pairing"),
                nil,
                "is required because subscriptions is set: the accessory pairs with the publishers it finds"
            )
            valid = false
        }
        var result: [SubscriptionProfile] = []
        for (index, item) in items.enumerated() {
            let path = ProfileReader.path(listPath, index: index)
            guard let view = object(item, at: path, allowed: ["name", "datapath"], required: ["name"]) else {
                valid = false
                continue
            }
            var subscription = SubscriptionProfile(name: "")
            if let text = string(view, "name") {
                do {
                    _ = try ServiceName(text)
                    subscription.name = text
                } catch {
                    report(view.path("name"), view["name"], error.description)
                    valid = false
                }
            } else {
                valid = false
            }
            if view.has("datapath") {
                if let datapath = bool(view, "datapath") { subscription.datapath = datapath } else { valid = false }
            }
            if !subscription.name.isEmpty, let first = result.firstIndex(where: { $0.name == subscription.name }) {
                report(
                    view.path("name"),
                    .string(subscription.name),
                    "is already listed by subscriptions[\(first)]; a service is subscribed to at most once"
                )
                valid = false
            }
            result.append(subscription)
        }
        return valid ? result : nil
    }
}
