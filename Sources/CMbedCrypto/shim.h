// mbedTLS 2.28 (Debian 12 libmbedtls-dev): the group/bignum arithmetic SAE needs and the
// CCM/GCM ciphers for protected frames. See platform-notes.md 3.
#ifndef AWAREBENCH_CMBEDCRYPTO_SHIM_H
#define AWAREBENCH_CMBEDCRYPTO_SHIM_H
#include <mbedtls/version.h>
#include <mbedtls/error.h>
#include <mbedtls/md.h>
#include <mbedtls/hkdf.h>
#include <mbedtls/bignum.h>
#include <mbedtls/ecp.h>
#include <mbedtls/hmac_drbg.h>
#include <mbedtls/ccm.h>
#include <mbedtls/gcm.h>
#include <mbedtls/aes.h>
#include <mbedtls/cmac.h>
#endif
