// libnl-3 / libnl-genl-3 (Debian 12 libnl-3-dev, libnl-genl-3-dev) for the nl80211 backend.
// The nla_for_each_nested for-loop macro does not import into Swift; the three inline
// functions below replace it (platform-notes.md 2.2, 2.3).
#ifndef AWAREBENCH_CNETLINK_SHIM_H
#define AWAREBENCH_CNETLINK_SHIM_H
#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <netlink/attr.h>
#include <netlink/errno.h>
#include <netlink/socket.h>
#include <netlink/version.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>
#include <linux/nl80211.h>

/// First attribute nested in `nested`, or NULL when it has none.
static inline struct nlattr *cnl_nested_first(const struct nlattr *nested, int *remaining) {
    *remaining = nla_len(nested);
    struct nlattr *first = (struct nlattr *)nla_data(nested);
    return nla_ok(first, *remaining) ? first : NULL;
}

/// The attribute after `current`, or NULL at the end.
static inline struct nlattr *cnl_nested_next(const struct nlattr *current, int *remaining) {
    struct nlattr *next = nla_next(current, remaining);
    return nla_ok(next, *remaining) ? next : NULL;
}

/// Whether `attribute` is a complete attribute within `remaining` octets.
static inline int cnl_ok(const struct nlattr *attribute, int remaining) {
    return nla_ok(attribute, remaining);
}
#endif
