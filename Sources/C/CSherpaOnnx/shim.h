// The part of sherpa-onnx 1.13.8's C API (`sherpa-onnx/c-api/c-api.h`, Apache-2.0, © Xiaomi Corporation)
// that the neural engine calls: offline text to speech. Declarations only, and no `link` in the module map:
// the library is opened at run time with dlopen (NeuralEngine's SherpaOnnxLibrary), so the default build
// needs neither the library nor its headers.
//
// The structs are copied field for field from the 1.13.8 header, every model family included, because
// SherpaOnnxOfflineTtsModelConfig holds them by value: a missing member would shift every field after it.
// The static assertions hold the sizes and offsets a C compiler gave for the real 1.13.8 header on x86_64
// and arm64 Linux (LP64); the library refuses any other version at run time (SherpaOnnxGetVersionStr).
#ifndef EPUB2AUDIO_CSHERPAONNX_SHIM_H
#define EPUB2AUDIO_CSHERPAONNX_SHIM_H

// dladdr is a GNU extension that Swift's Glibc module does not declare.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

/// The file of the shared object that holds `address` (what the dynamic loader resolved a bare name to), or NULL.
static inline const char *epub2audio_shared_object_path(const void *address) {
    Dl_info info;
    if (dladdr(address, &info) != 0 && info.dli_fname != NULL) return info.dli_fname;
    return NULL;
}

typedef struct SherpaOnnxOfflineTtsVitsModelConfig {
    const char *model;
    const char *lexicon;
    const char *tokens;
    const char *data_dir;
    float noise_scale;
    float noise_scale_w;
    float length_scale;
    const char *dict_dir;
} SherpaOnnxOfflineTtsVitsModelConfig;

typedef struct SherpaOnnxOfflineTtsMatchaModelConfig {
    const char *acoustic_model;
    const char *vocoder;
    const char *lexicon;
    const char *tokens;
    const char *data_dir;
    float noise_scale;
    float length_scale;
    const char *dict_dir;
} SherpaOnnxOfflineTtsMatchaModelConfig;

typedef struct SherpaOnnxOfflineTtsKokoroModelConfig {
    const char *model;
    const char *voices;
    const char *tokens;
    const char *data_dir;
    float length_scale;
    const char *dict_dir;
    const char *lexicon;
    const char *lang;
} SherpaOnnxOfflineTtsKokoroModelConfig;

typedef struct SherpaOnnxOfflineTtsKittenModelConfig {
    const char *model;
    const char *voices;
    const char *tokens;
    const char *data_dir;
    float length_scale;
} SherpaOnnxOfflineTtsKittenModelConfig;

typedef struct SherpaOnnxOfflineTtsZipvoiceModelConfig {
    const char *tokens;
    const char *encoder;
    const char *decoder;
    const char *vocoder;
    const char *data_dir;
    const char *lexicon;
    float feat_scale;
    float t_shift;
    float target_rms;
    float guidance_scale;
} SherpaOnnxOfflineTtsZipvoiceModelConfig;

typedef struct SherpaOnnxOfflineTtsPocketModelConfig {
    const char *lm_flow;
    const char *lm_main;
    const char *encoder;
    const char *decoder;
    const char *text_conditioner;
    const char *vocab_json;
    const char *token_scores_json;
    int32_t voice_embedding_cache_capacity;
} SherpaOnnxOfflineTtsPocketModelConfig;

typedef struct SherpaOnnxOfflineTtsSupertonicModelConfig {
    const char *duration_predictor;
    const char *text_encoder;
    const char *vector_estimator;
    const char *vocoder;
    const char *tts_json;
    const char *unicode_indexer;
    const char *voice_style;
} SherpaOnnxOfflineTtsSupertonicModelConfig;

typedef struct SherpaOnnxOfflineTtsModelConfig {
    SherpaOnnxOfflineTtsVitsModelConfig vits;
    int32_t num_threads;
    int32_t debug;
    const char *provider;
    SherpaOnnxOfflineTtsMatchaModelConfig matcha;
    SherpaOnnxOfflineTtsKokoroModelConfig kokoro;
    SherpaOnnxOfflineTtsKittenModelConfig kitten;
    SherpaOnnxOfflineTtsZipvoiceModelConfig zipvoice;
    SherpaOnnxOfflineTtsPocketModelConfig pocket;
    SherpaOnnxOfflineTtsSupertonicModelConfig supertonic;
} SherpaOnnxOfflineTtsModelConfig;

typedef struct SherpaOnnxOfflineTtsConfig {
    SherpaOnnxOfflineTtsModelConfig model;
    const char *rule_fsts;
    int32_t max_num_sentences;
    const char *rule_fars;
    float silence_scale;
} SherpaOnnxOfflineTtsConfig;

/// Mono samples in [-1, 1]; owned by the library, freed with SherpaOnnxDestroyOfflineTtsGeneratedAudio.
typedef struct SherpaOnnxGeneratedAudio {
    const float *samples;
    int32_t n;
    int32_t sample_rate;
} SherpaOnnxGeneratedAudio;

typedef struct SherpaOnnxGenerationConfig {
    float silence_scale;
    float speed;
    int32_t sid;
    const float *reference_audio;
    int32_t reference_audio_len;
    int32_t reference_sample_rate;
    const char *reference_text;
    int32_t num_steps;
    const char *extra;
} SherpaOnnxGenerationConfig;

typedef struct SherpaOnnxOfflineTts SherpaOnnxOfflineTts;

typedef int32_t (*SherpaOnnxGeneratedAudioProgressCallbackWithArg)(
    const float *samples, int32_t n, float p, void *arg);

// The functions, as the pointer types dlsym's results are cast to (Swift cannot call a symbol it only
// knows by name; these typedefs give it the signatures).
typedef const char *(*SherpaOnnxGetVersionStrFunction)(void);
typedef const SherpaOnnxOfflineTts *(*SherpaOnnxCreateOfflineTtsFunction)(const SherpaOnnxOfflineTtsConfig *config);
typedef void (*SherpaOnnxDestroyOfflineTtsFunction)(const SherpaOnnxOfflineTts *tts);
typedef int32_t (*SherpaOnnxOfflineTtsSampleRateFunction)(const SherpaOnnxOfflineTts *tts);
typedef int32_t (*SherpaOnnxOfflineTtsNumSpeakersFunction)(const SherpaOnnxOfflineTts *tts);
typedef const SherpaOnnxGeneratedAudio *(*SherpaOnnxOfflineTtsGenerateWithConfigFunction)(
    const SherpaOnnxOfflineTts *tts, const char *text, const SherpaOnnxGenerationConfig *config,
    SherpaOnnxGeneratedAudioProgressCallbackWithArg callback, void *arg);
typedef void (*SherpaOnnxDestroyOfflineTtsGeneratedAudioFunction)(const SherpaOnnxGeneratedAudio *audio);

// Sizes and offsets of the 1.13.8 header (gcc 12, x86_64): a copy that drifts fails to compile.
#if defined(__LP64__)
_Static_assert(sizeof(SherpaOnnxOfflineTtsVitsModelConfig) == 56, "vits config layout differs from 1.13.8");
_Static_assert(offsetof(SherpaOnnxOfflineTtsVitsModelConfig, noise_scale) == 32, "vits noise_scale offset");
_Static_assert(offsetof(SherpaOnnxOfflineTtsVitsModelConfig, dict_dir) == 48, "vits dict_dir offset");
_Static_assert(sizeof(SherpaOnnxOfflineTtsModelConfig) == 416, "model config layout differs from 1.13.8");
_Static_assert(offsetof(SherpaOnnxOfflineTtsModelConfig, num_threads) == 56, "num_threads offset");
_Static_assert(offsetof(SherpaOnnxOfflineTtsModelConfig, provider) == 64, "provider offset");
_Static_assert(offsetof(SherpaOnnxOfflineTtsModelConfig, supertonic) == 360, "supertonic offset");
_Static_assert(sizeof(SherpaOnnxOfflineTtsConfig) == 448, "tts config layout differs from 1.13.8");
_Static_assert(offsetof(SherpaOnnxOfflineTtsConfig, max_num_sentences) == 424, "max_num_sentences offset");
_Static_assert(offsetof(SherpaOnnxOfflineTtsConfig, silence_scale) == 440, "silence_scale offset");
_Static_assert(sizeof(SherpaOnnxGeneratedAudio) == 16, "generated audio layout differs from 1.13.8");
_Static_assert(sizeof(SherpaOnnxGenerationConfig) == 56, "generation config layout differs from 1.13.8");
_Static_assert(offsetof(SherpaOnnxGenerationConfig, sid) == 8, "sid offset");
_Static_assert(offsetof(SherpaOnnxGenerationConfig, extra) == 48, "extra offset");
#endif

#endif
