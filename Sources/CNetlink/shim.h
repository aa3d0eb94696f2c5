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
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <unistd.h>

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
/// `SIOCGIFFLAGS` / `SIOCSIFFLAGS` and `SIOCSIFHWADDR` on a datagram socket (netdevice(7)): bringing
/// an interface down and up, and its MAC address (the radio target gives each test's phone its NMI). `struct ifreq` and its union do not import
/// usefully into Swift. Each returns 0 or -errno.
static inline int cnl_link_ioctl(unsigned long request, struct ifreq *ifr) {
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -errno;
    int result = ioctl(fd, request, ifr) < 0 ? -errno : 0;
    close(fd);
    return result;
}

/// Brings `name` up or down.
static inline int cnl_link_set_up(const char *name, int up) {
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
    int result = cnl_link_ioctl(SIOCGIFFLAGS, &ifr);
    if (result < 0) return result;
    if (up) ifr.ifr_flags |= IFF_UP; else ifr.ifr_flags &= ~IFF_UP;
    return cnl_link_ioctl(SIOCSIFFLAGS, &ifr);
}

/// Sets the Ethernet-style (6-octet) hardware address of `name`; most drivers want it down.
static inline int cnl_link_set_address(const char *name, const unsigned char *address) {
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
    ifr.ifr_hwaddr.sa_family = ARPHRD_ETHER;
    memcpy(ifr.ifr_hwaddr.sa_data, address, 6);
    return cnl_link_ioctl(SIOCSIFHWADDR, &ifr);
}

#endif
