#include "crypto/accelerated_aes.h"

#include <openssl/crypto.h>

#include <cstring>

#include "crypto/aes_cipher.h"

#ifdef PQPAGE_HAVE_IPSEC_MB
#include <intel-ipsec-mb.h>
#endif

namespace pqpage::internal {

#ifdef PQPAGE_HAVE_IPSEC_MB
namespace {

struct ManagerFree {
  void operator()(IMB_MGR* manager) const { free_mb_mgr(manager); }
};
using Manager = std::unique_ptr<IMB_MGR, ManagerFree>;

// A manager set up for the CPU this runs on; nullptr when the library cannot run here.
Manager MakeManager() {
  Manager made(alloc_mb_mgr(0));
  if (made == nullptr) return nullptr;
  IMB_ARCH arch = IMB_ARCH_NONE;
  init_mb_mgr_auto(made.get(), &arch);
  if (imb_get_errno(made.get()) != 0 || arch < IMB_ARCH_SSE ||
      (made->features & IMB_FEATURE_AESNI) == 0) {
    return nullptr;
  }
  return made;
}

// The direct GCM calls keep no state in their manager (only its function pointers are used), so
// every thread shares this one; it lives as long as the process.
const IMB_MGR* SharedManager() {
  static const IMB_MGR* const manager = MakeManager().release();
  return manager;
}

// CTR goes through the job queue, which is state: each thread has its own manager for it.
IMB_MGR* ThreadManager() {
  thread_local const Manager manager = MakeManager();
  return manager.get();
}

// The library reads no byte of an empty buffer but rejects a null pointer to one.
const uint8_t* NonNull(const void* bytes) {
  static const uint8_t kNothing = 0;
  return bytes != nullptr ? static_cast<const uint8_t*>(bytes) : &kNothing;
}

// The library's functions for one key size.
struct KeySizeFunctions {
  aes_gcm_pre_t gcm_precompute;
  aes_gcm_enc_dec_t encrypt;
  aes_gcm_enc_dec_t decrypt;
  keyexp_t expand;
};

KeySizeFunctions FunctionsFor(const IMB_MGR& manager, size_t key_bytes) {
  switch (key_bytes) {
    case 16:
      return {manager.gcm128_pre, manager.gcm128_enc, manager.gcm128_dec, manager.keyexp_128};
    case 24:
      return {manager.gcm192_pre, manager.gcm192_enc, manager.gcm192_dec, manager.keyexp_192};
    default:
      return {manager.gcm256_pre, manager.gcm256_enc, manager.gcm256_dec, manager.keyexp_256};
  }
}

class IpsecMbAes final : public AcceleratedAes {
 public:
  IpsecMbAes(const IMB_MGR& manager, std::string_view key) : key_bytes_(key.size()) {
    const KeySizeFunctions functions = FunctionsFor(manager, key.size());
    encrypt_ = functions.encrypt;
    decrypt_ = functions.decrypt;
    functions.gcm_precompute(key.data(), &gcm_key_.data);
    functions.expand(key.data(), round_keys_.encrypt, round_keys_.decrypt);
  }
  ~IpsecMbAes() override {
    OPENSSL_cleanse(&gcm_key_, sizeof(gcm_key_));
    OPENSSL_cleanse(&round_keys_, sizeof(round_keys_));
  }
  IpsecMbAes(const IpsecMbAes&) = delete;
  IpsecMbAes& operator=(const IpsecMbAes&) = delete;

  void GcmEncrypt(const uint8_t* nonce, std::string_view aad, absl::Span<const uint8_t> in,
                  uint8_t* out, uint8_t* tag) const override {
    Gcm(encrypt_, nonce, aad, in, out, tag);
  }

  bool GcmDecrypt(const uint8_t* nonce, std::string_view aad, absl::Span<const uint8_t> in,
                  uint8_t* out, const uint8_t* tag) const override {
    uint8_t computed[kTagBytes];
    Gcm(decrypt_, nonce, aad, in, out, computed);
    return CRYPTO_memcmp(computed, tag, kTagBytes) == 0;
  }

  bool Ctr(const uint8_t* counter, absl::Span<const uint8_t> in, uint8_t* out) const override {
    if (in.empty()) return true;
    IMB_MGR* manager = ThreadManager();
    if (manager == nullptr) return false;
    IMB_JOB* job = IMB_GET_NEXT_JOB(manager);
    job->cipher_direction = IMB_DIR_ENCRYPT;
    job->chain_order = IMB_ORDER_CIPHER_HASH;
    job->cipher_mode = IMB_CIPHER_CNTR;
    job->hash_alg = IMB_AUTH_NULL;
    job->enc_keys = round_keys_.encrypt;
    job->dec_keys = round_keys_.encrypt;
    job->key_len_in_bytes = key_bytes_;
    job->src = in.data();
    job->dst = out;
    job->cipher_start_src_offset_in_bytes = 0;
    job->msg_len_to_cipher_in_bytes = in.size();
    job->iv = counter;
    job->iv_len_in_bytes = 16;
    job = IMB_SUBMIT_JOB(manager);
    // The queue holds this job alone: if it did not finish on submission, one flush finishes it
    // (a loop could spin forever on a queue the library left empty).
    if (job == nullptr && imb_get_errno(manager) == 0) job = IMB_FLUSH_JOB(manager);
    return job != nullptr && job->status == IMB_STATUS_COMPLETED;
  }

 private:
  // Its header aligns these only when LINUX is defined; the library's code expects 64 and 16.
  struct alignas(64) GcmKey {
    gcm_key_data data;
  };
  struct alignas(64) GcmContext {
    gcm_context_data data;
  };
  struct alignas(16) RoundKeys {
    uint8_t encrypt[16 * 15];
    uint8_t decrypt[16 * 15];
  };

  void Gcm(aes_gcm_enc_dec_t pass, const uint8_t* nonce, std::string_view aad,
           absl::Span<const uint8_t> in, uint8_t* out, uint8_t* tag) const {
    GcmContext context;
    pass(&gcm_key_.data, &context.data, const_cast<uint8_t*>(NonNull(out)), NonNull(in.data()),
         in.size(), nonce, NonNull(aad.data()), aad.size(), tag, kTagBytes);
    // The context held hash state derived from the key.
    OPENSSL_cleanse(&context, sizeof(context));
  }

  GcmKey gcm_key_;
  RoundKeys round_keys_;
  size_t key_bytes_;
  aes_gcm_enc_dec_t encrypt_ = nullptr;
  aes_gcm_enc_dec_t decrypt_ = nullptr;
};

}  // namespace

std::unique_ptr<const AcceleratedAes> AcceleratedAes::Make(std::string_view key) {
  const IMB_MGR* manager = SharedManager();
  if (manager == nullptr || !CheckAesKey(key).ok()) return nullptr;
  return std::make_unique<const IpsecMbAes>(*manager, key);
}

bool AcceleratedAesBuiltIn() { return true; }

#else

std::unique_ptr<const AcceleratedAes> AcceleratedAes::Make(std::string_view) { return nullptr; }

bool AcceleratedAesBuiltIn() { return false; }

#endif

}  // namespace pqpage::internal
