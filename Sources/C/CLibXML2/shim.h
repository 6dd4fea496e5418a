#ifndef EPUB2AUDIO_CLIBXML2_SHIM_H
#define EPUB2AUDIO_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
// Debian's libxml2 headers pull in system ICU, which clashes with Foundation's own ICU types
// ("'UErrorCode' has different definitions"). We never use libxml2's ICU support.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/HTMLparser.h>
#include <libxml/xmlerror.h>
#include <libxml/entities.h>
#include <libxml/xmlsave.h>

// Swift 6 refuses C global variables such as `xmlFree`: call it through a function.
static inline void epub2audio_xmlFree(void *pointer) { xmlFree(pointer); }
#endif
