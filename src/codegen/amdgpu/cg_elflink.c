/* cg_elflink.c - the code object (.hsaco) written from LLVM's object file
 * without lld, for the objects fxcc makes (cg_elflink.h).
 *
 * What lld does with such an object is small and fixed: it copies the
 * metadata note, .rodata and .text into three segments, resolves the
 * descriptors' entry offsets (R_AMDGPU_REL64, S + A - P), exports every
 * symbol through .dynsym with both hash tables, and adds .dynamic, a
 * _DYNAMIC symbol and the RELRO padding. This file does the same in the
 * same layout, so that the result is lld's to the byte; the rules of that
 * layout (which lld derives from its general machinery) are written out
 * where they are used. The rest of lld's start-up, about a millisecond of
 * a small kernel's compilation, is saved (docs/compile-time.md).
 *
 * Anything outside that shape (debug sections from -g, relocations in
 * .text, data sections, local symbols) makes cg_elf_link decline; the
 * caller links with lld then. Reading never trusts the object: every
 * offset and index is checked, and a malformed object is declined too. */
#include "codegen/amdgpu/cg_elflink.h"
#include <elf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
    EL_PAGE = 0x1000,          /* lld's page size for AMDGPU (maximum and common) */
    EL_OSABI_AMDGPU_HSA = 64,
    EL_R_AMDGPU_REL64 = 5,
    EL_NPHDR = 8,
    EL_DYNAMIC_SIZE = 7 * sizeof(Elf64_Dyn),
    EL_GNU_HASH_SHIFT2 = 26,   /* lld's second bloom-filter shift */
};

/* The output's sections, in lld's order (also their section indices). */
enum {
    OS_NULL, OS_NOTE, OS_DYNSYM, OS_GNU_HASH, OS_HASH, OS_DYNSTR, OS_RODATA, OS_TEXT,
    OS_DYNAMIC, OS_RELRO_PADDING, OS_COMMENT, OS_SYMTAB, OS_SHSTRTAB, OS_STRTAB, OS_COUNT
};

static const char *const el_section_name[OS_COUNT] = {
    "", ".note", ".dynsym", ".gnu.hash", ".hash", ".dynstr", ".rodata", ".text",
    ".dynamic", ".relro_padding", ".comment", ".symtab", ".shstrtab", ".strtab",
};

typedef struct {
    const char *name;
    Elf64_Sym sym;
    int out_section;   /* OS_TEXT or OS_RODATA */
    uint32_t str;      /* offset in .dynstr, and in .strtab (built alike) */
    uint32_t gnu_hash;
} ElSym;

/* The object, read and checked. */
typedef struct {
    const unsigned char *obj;
    size_t len;
    Elf64_Ehdr eh;
    Elf64_Shdr text, rodata, note, rela, comment, symtab, strtab;
    unsigned text_index, rodata_index;
    bool has_rela, has_comment;
    ElSym *syms;       /* the global symbols, in the object's order */
    size_t nsyms;
} ElIn;

typedef struct {
    uint64_t off, addr, size, align;
} ElPlace;

/* Everything the output's bytes are computed from. */
typedef struct {
    ElPlace sec[OS_COUNT];
    uint32_t sh_name[OS_COUNT];
    size_t *dynsym_order;   /* dynsym position - 1 -> index into ElIn.syms */
    uint32_t gnu_buckets, gnu_mask_words;
    char *comment;          /* the merged strings */
    uint64_t shoff, file_size;
} ElOut;

/* ---- reading the object ---- */

static bool el_range_ok(const ElIn *in, uint64_t off, uint64_t size)
{
    return off <= in->len && size <= in->len - off;
}

static bool el_section_header(const ElIn *in, unsigned i, Elf64_Shdr *sh)
{
    uint64_t off = in->eh.e_shoff + (uint64_t)i * sizeof *sh;
    if (i >= in->eh.e_shnum || !el_range_ok(in, off, sizeof *sh))
        return false;
    memcpy(sh, in->obj + off, sizeof *sh);
    return sh->sh_type == SHT_NOBITS || el_range_ok(in, sh->sh_offset, sh->sh_size);
}

/* A NUL-terminated string at `off` inside the string table `tab`. */
static const char *el_string(const ElIn *in, const Elf64_Shdr *tab, uint64_t off)
{
    if (off >= tab->sh_size)
        return NULL;
    const char *s = (const char *)in->obj + tab->sh_offset + off;
    return memchr(s, 0, tab->sh_size - off) ? s : NULL;
}

static bool el_header_ok(ElIn *in)
{
    if (in->len < sizeof in->eh)
        return false;
    memcpy(&in->eh, in->obj, sizeof in->eh);
    const unsigned char *id = in->eh.e_ident;
    return memcmp(id, ELFMAG, SELFMAG) == 0 && id[EI_CLASS] == ELFCLASS64 &&
           id[EI_DATA] == ELFDATA2LSB && id[EI_OSABI] == EL_OSABI_AMDGPU_HSA &&
           in->eh.e_type == ET_REL && in->eh.e_machine == EM_AMDGPU &&
           in->eh.e_shentsize == sizeof(Elf64_Shdr) && in->eh.e_shstrndx < in->eh.e_shnum;
}

/* Files one section by its name; false for a section this linker does not
 * handle, or one with unexpected flags. */
static bool el_take_section(ElIn *in, unsigned i, const Elf64_Shdr *sh, const char *name)
{
    const uint64_t f = sh->sh_flags;
    if (sh->sh_type == SHT_NULL && i == 0)
        return true;
    if (sh->sh_addralign & (sh->sh_addralign - 1))
        return false;   /* not a power of two */
    if ((!strcmp(name, ".text") && in->text_index) || (!strcmp(name, ".rodata") && in->rodata_index) ||
        (!strcmp(name, ".rela.rodata") && in->has_rela) || (!strcmp(name, ".note") && in->note.sh_size) ||
        (!strcmp(name, ".comment") && in->has_comment) || (!strcmp(name, ".symtab") && in->symtab.sh_size))
        return false;   /* twice: not an object LLVM writes */
    if (!strcmp(name, ".text") && sh->sh_type == SHT_PROGBITS && f == (SHF_ALLOC | SHF_EXECINSTR)) {
        in->text = *sh;
        in->text_index = i;
    } else if (!strcmp(name, ".rodata") && sh->sh_type == SHT_PROGBITS && f == SHF_ALLOC) {
        in->rodata = *sh;
        in->rodata_index = i;
    } else if (!strcmp(name, ".rela.rodata") && sh->sh_type == SHT_RELA &&
               sh->sh_entsize == sizeof(Elf64_Rela)) {
        in->rela = *sh;
        in->has_rela = true;
    } else if (!strcmp(name, ".note") && sh->sh_type == SHT_NOTE && f == SHF_ALLOC) {
        in->note = *sh;
    } else if (!strcmp(name, ".comment") && sh->sh_type == SHT_PROGBITS &&
               f == (SHF_MERGE | SHF_STRINGS) && sh->sh_entsize == 1) {
        in->comment = *sh;
        in->has_comment = true;
    } else if (!strcmp(name, ".note.GNU-stack") && sh->sh_size == 0 && f == 0) {
        /* no executable stack asked for: nothing to carry over */
    } else if (!strcmp(name, ".symtab") && sh->sh_type == SHT_SYMTAB &&
               sh->sh_entsize == sizeof(Elf64_Sym)) {
        in->symtab = *sh;
    } else if (sh->sh_type == SHT_STRTAB) {
        /* the symbol names and section names; which is which comes from
         * the links */
    } else {
        return false;
    }
    return true;
}

static bool el_read_sections(ElIn *in)
{
    Elf64_Shdr names;
    if (!el_section_header(in, in->eh.e_shstrndx, &names))
        return false;
    for (unsigned i = 0; i < in->eh.e_shnum; i++) {
        Elf64_Shdr sh;
        const char *name;
        if (!el_section_header(in, i, &sh) || !(name = el_string(in, &names, sh.sh_name)) ||
            !el_take_section(in, i, &sh, name))
            return false;
    }
    /* what every kernel module has: code, descriptors, metadata, symbols */
    if (!in->text_index || !in->rodata_index || !in->note.sh_size || !in->symtab.sh_size ||
        !el_section_header(in, in->symtab.sh_link, &in->strtab) || in->strtab.sh_type != SHT_STRTAB)
        return false;
    return !in->has_rela || in->rela.sh_info == in->rodata_index;
}

/* A global function in .text or a global object in .rodata, exported as it
 * is (lld exports every default and protected symbol of a shared object). */
static bool el_symbol_ok(const ElIn *in, const Elf64_Sym *s, int *out_section)
{
    int vis = ELF64_ST_VISIBILITY(s->st_other);
    if (ELF64_ST_BIND(s->st_info) != STB_GLOBAL || s->st_other != vis ||
        (vis != STV_DEFAULT && vis != STV_PROTECTED))
        return false;
    const Elf64_Shdr *sec;
    if (ELF64_ST_TYPE(s->st_info) == STT_FUNC && s->st_shndx == in->text_index) {
        sec = &in->text;
        *out_section = OS_TEXT;
    } else if (ELF64_ST_TYPE(s->st_info) == STT_OBJECT && s->st_shndx == in->rodata_index) {
        sec = &in->rodata;
        *out_section = OS_RODATA;
    } else {
        return false;
    }
    return s->st_value <= sec->sh_size && s->st_size <= sec->sh_size - s->st_value;
}

static uint32_t el_gnu_hash(const char *s)
{
    uint32_t h = 5381;
    for (; *s; s++)
        h = h * 33 + (unsigned char)*s;
    return h;
}

static uint32_t el_sysv_hash(const char *s)
{
    uint32_t h = 0;
    for (; *s; s++) {
        h = (h << 4) + (unsigned char)*s;
        h ^= (h >> 24) & 0xf0;
    }
    return h & 0x0fffffff;
}

/* Symbol 0 is the null symbol; every other one must be global (sh_info 1:
 * no local symbols). */
static bool el_read_symbols(ElIn *in)
{
    size_t n = in->symtab.sh_size / sizeof(Elf64_Sym);
    if (n < 2 || in->symtab.sh_info != 1 || n > UINT32_MAX / 64)
        return false;
    in->nsyms = n - 1;
    in->syms = calloc(in->nsyms, sizeof *in->syms);
    if (!in->syms)
        return false;
    uint32_t str = 1;
    for (size_t i = 0; i < in->nsyms; i++) {
        ElSym *s = &in->syms[i];
        memcpy(&s->sym, in->obj + in->symtab.sh_offset + (i + 1) * sizeof(Elf64_Sym), sizeof s->sym);
        s->name = el_string(in, &in->strtab, s->sym.st_name);
        if (!s->name || !*s->name || !el_symbol_ok(in, &s->sym, &s->out_section))
            return false;
        s->str = str;
        str += (uint32_t)strlen(s->name) + 1;
        if (str > UINT32_MAX / 2)
            return false;
        s->gnu_hash = el_gnu_hash(s->name);
    }
    return true;
}

/* The descriptors' entry offsets are the only relocations handled. */
static bool el_relocations_ok(const ElIn *in)
{
    if (!in->has_rela)
        return true;
    size_t n = in->rela.sh_size / sizeof(Elf64_Rela);
    for (size_t i = 0; i < n; i++) {
        Elf64_Rela r;
        memcpy(&r, in->obj + in->rela.sh_offset + i * sizeof r, sizeof r);
        uint64_t sym = ELF64_R_SYM(r.r_info);
        if (ELF64_R_TYPE(r.r_info) != EL_R_AMDGPU_REL64 || sym == 0 || sym > in->nsyms ||
            r.r_offset > in->rodata.sh_size || in->rodata.sh_size - r.r_offset < 8)
            return false;
    }
    return true;
}

/* ---- the output's layout ---- */

static uint64_t el_align(uint64_t v, uint64_t a)
{
    return a > 1 ? (v + a - 1) / a * a : v;
}

/* The smallest value >= v that is congruent to skew modulo a: a section
 * starting a segment has its file offset and address congruent. */
static uint64_t el_align_skew(uint64_t v, uint64_t a, uint64_t skew)
{
    skew %= a;
    return (v + a - 1 - skew) / a * a + skew;
}

/* Where lld starts a new segment's address: on the next page, at the same
 * place within it as the previous segment ended. */
static uint64_t el_segment_start(uint64_t dot)
{
    return el_align(dot, EL_PAGE) + dot % EL_PAGE;
}

/* The smallest power of two greater than v (LLVM's NextPowerOf2). */
static uint64_t el_next_power_of_2(uint64_t v)
{
    uint64_t p = 1;
    while (p <= v)
        p <<= 1;
    return p;
}

/* lld sorts the exported symbols by their .gnu.hash bucket, and within a
 * bucket by their .dynstr offset (the object's order). */
static bool el_order_dynsym(const ElIn *in, ElOut *out)
{
    out->gnu_buckets = in->nsyms / 4 > 1 ? (uint32_t)(in->nsyms / 4) : 1;
    out->gnu_mask_words = (uint32_t)el_next_power_of_2(in->nsyms * 12 / 64);
    out->dynsym_order = malloc(in->nsyms * sizeof *out->dynsym_order);
    if (!out->dynsym_order)
        return false;
    /* a stable counting sort on the bucket keeps the object's order inside
     * each bucket */
    uint32_t *count = calloc(out->gnu_buckets + 1, sizeof *count);
    if (!count)
        return false;
    for (size_t i = 0; i < in->nsyms; i++)
        count[in->syms[i].gnu_hash % out->gnu_buckets + 1]++;
    for (uint32_t b = 0; b < out->gnu_buckets; b++)
        count[b + 1] += count[b];
    for (size_t i = 0; i < in->nsyms; i++)
        out->dynsym_order[count[in->syms[i].gnu_hash % out->gnu_buckets]++] = i;
    free(count);
    return true;
}

/* .comment: the linker's line, then the object's strings, each once (lld
 * merges the section's strings). */
static bool el_merge_comment(const ElIn *in, const char *linker_id, ElOut *out)
{
    size_t idlen = strlen(linker_id) + 1;
    size_t cap = idlen + (in->has_comment ? in->comment.sh_size : 0);
    char *c = malloc(cap);
    if (!c)
        return false;
    memcpy(c, linker_id, idlen);
    size_t n = idlen;
    if (in->has_comment) {
        const char *p = (const char *)in->obj + in->comment.sh_offset;
        const char *end = p + in->comment.sh_size;
        if (in->comment.sh_size && end[-1] != 0) {
            free(c);
            return false;
        }
        for (; p < end; p += strlen(p) + 1) {
            bool seen = false;
            for (size_t q = 0; q < n && !seen; q += strlen(c + q) + 1)
                seen = !strcmp(c + q, p);
            if (!seen) {
                memcpy(c + n, p, strlen(p) + 1);
                n += strlen(p) + 1;
            }
        }
    }
    out->comment = c;
    out->sec[OS_COMMENT].size = n;
    return true;
}

static void el_place_after(ElOut *out, int s, uint64_t *off)
{
    ElPlace *p = &out->sec[s];
    p->off = el_align(*off, p->align);
    *off = p->off + (s == OS_RELRO_PADDING ? 0 : p->size);
}

static uint64_t el_end_addr(const ElOut *out, int s)
{
    return out->sec[s].addr + out->sec[s].size;
}

static bool el_layout(const ElIn *in, ElOut *out)
{
    ElPlace *s = out->sec;
    size_t n = in->nsyms;
    uint64_t names = 1;
    for (size_t i = 0; i < n; i++)
        names += strlen(in->syms[i].name) + 1;
    s[OS_NOTE] = (ElPlace){ .size = in->note.sh_size, .align = in->note.sh_addralign };
    s[OS_DYNSYM] = (ElPlace){ .size = (n + 1) * sizeof(Elf64_Sym), .align = 8 };
    s[OS_GNU_HASH] = (ElPlace){ .size = 16 + 8 * (uint64_t)out->gnu_mask_words +
                                        4 * (uint64_t)out->gnu_buckets + 4 * n, .align = 8 };
    s[OS_HASH] = (ElPlace){ .size = 4 * (2 + 2 * (n + 1)), .align = 4 };
    s[OS_DYNSTR] = (ElPlace){ .size = names, .align = 1 };
    s[OS_RODATA] = (ElPlace){ .size = in->rodata.sh_size, .align = in->rodata.sh_addralign };
    s[OS_TEXT] = (ElPlace){ .size = in->text.sh_size, .align = in->text.sh_addralign };
    s[OS_DYNAMIC] = (ElPlace){ .size = EL_DYNAMIC_SIZE, .align = 8 };
    s[OS_RELRO_PADDING].align = 1;
    s[OS_COMMENT].align = 1;
    s[OS_SYMTAB] = (ElPlace){ .size = (n + 2) * sizeof(Elf64_Sym), .align = 8 };
    s[OS_STRTAB] = (ElPlace){ .size = names + sizeof "_DYNAMIC", .align = 1 };
    s[OS_SHSTRTAB].align = 1;
    s[OS_SHSTRTAB].size = 0;
    for (int i = 0; i < OS_COUNT; i++) {
        out->sh_name[i] = (uint32_t)s[OS_SHSTRTAB].size;
        s[OS_SHSTRTAB].size += strlen(el_section_name[i]) + 1;
    }

    /* the first segment: headers, note, dynamic symbols, read-only data;
     * its addresses are its file offsets */
    uint64_t off = sizeof(Elf64_Ehdr) + EL_NPHDR * sizeof(Elf64_Phdr);
    for (int i = OS_NOTE; i <= OS_RODATA; i++) {
        el_place_after(out, i, &off);
        s[i].addr = s[i].off;
    }
    /* the code segment, then the RELRO segment of .dynamic */
    s[OS_TEXT].addr = el_align(el_segment_start(el_end_addr(out, OS_RODATA)), s[OS_TEXT].align);
    s[OS_TEXT].off = el_align_skew(off, EL_PAGE, s[OS_TEXT].addr);
    s[OS_DYNAMIC].addr = el_align(el_segment_start(el_end_addr(out, OS_TEXT)), 8);
    s[OS_DYNAMIC].off = el_align_skew(s[OS_TEXT].off + s[OS_TEXT].size, EL_PAGE, s[OS_DYNAMIC].addr);
    /* .relro_padding fills the RELRO segment's last page (empty, at the page
     * boundary, when .dynamic ends the page: lld writes it so) */
    uint64_t dyn_end = el_end_addr(out, OS_DYNAMIC);
    s[OS_RELRO_PADDING].addr = dyn_end;
    s[OS_RELRO_PADDING].size = el_align(dyn_end, EL_PAGE) - dyn_end;
    off = s[OS_DYNAMIC].off + s[OS_DYNAMIC].size;
    for (int i = OS_RELRO_PADDING; i < OS_COUNT; i++)
        el_place_after(out, i, &off);
    out->shoff = el_align(off, 8);
    out->file_size = out->shoff + OS_COUNT * sizeof(Elf64_Shdr);
    return true;
}

/* ---- writing ---- */

static void el_put(unsigned char *buf, uint64_t off, const void *src, size_t n)
{
    memcpy(buf + off, src, n);
}

static void el_write_header(const ElIn *in, const ElOut *out, unsigned char *buf)
{
    Elf64_Ehdr eh = { 0 };
    memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS64;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    eh.e_ident[EI_OSABI] = EL_OSABI_AMDGPU_HSA;
    eh.e_ident[EI_ABIVERSION] = in->eh.e_ident[EI_ABIVERSION];
    eh.e_type = ET_DYN;
    eh.e_machine = EM_AMDGPU;
    eh.e_version = EV_CURRENT;
    eh.e_phoff = sizeof eh;
    eh.e_shoff = out->shoff;
    eh.e_flags = in->eh.e_flags;
    eh.e_ehsize = sizeof eh;
    eh.e_phentsize = sizeof(Elf64_Phdr);
    eh.e_phnum = EL_NPHDR;
    eh.e_shentsize = sizeof(Elf64_Shdr);
    eh.e_shnum = OS_COUNT;
    eh.e_shstrndx = OS_SHSTRTAB;
    el_put(buf, 0, &eh, sizeof eh);
}

static Elf64_Phdr el_phdr(uint32_t type, uint32_t flags, uint64_t off, uint64_t addr,
                          uint64_t filesz, uint64_t memsz, uint64_t align)
{
    return (Elf64_Phdr){ .p_type = type, .p_flags = flags, .p_offset = off, .p_vaddr = addr,
                         .p_paddr = addr, .p_filesz = filesz, .p_memsz = memsz, .p_align = align };
}

static void el_write_phdrs(const ElOut *out, unsigned char *buf)
{
    const ElPlace *s = out->sec;
    uint64_t relro = s[OS_DYNAMIC].size + s[OS_RELRO_PADDING].size;
    uint64_t first = el_end_addr(out, OS_RODATA);
    uint64_t phsize = EL_NPHDR * sizeof(Elf64_Phdr);
    Elf64_Phdr ph[EL_NPHDR] = {
        el_phdr(PT_PHDR, PF_R, sizeof(Elf64_Ehdr), sizeof(Elf64_Ehdr), phsize, phsize, 8),
        el_phdr(PT_LOAD, PF_R, 0, 0, first, first, EL_PAGE),
        el_phdr(PT_LOAD, PF_R | PF_X, s[OS_TEXT].off, s[OS_TEXT].addr, s[OS_TEXT].size,
                s[OS_TEXT].size, EL_PAGE),
        el_phdr(PT_LOAD, PF_R | PF_W, s[OS_DYNAMIC].off, s[OS_DYNAMIC].addr, s[OS_DYNAMIC].size,
                relro, EL_PAGE),
        el_phdr(PT_DYNAMIC, PF_R | PF_W, s[OS_DYNAMIC].off, s[OS_DYNAMIC].addr,
                s[OS_DYNAMIC].size, s[OS_DYNAMIC].size, 8),
        el_phdr(PT_GNU_RELRO, PF_R, s[OS_DYNAMIC].off, s[OS_DYNAMIC].addr, s[OS_DYNAMIC].size,
                relro, 1),
        el_phdr(PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0, 0),
        el_phdr(PT_NOTE, PF_R, s[OS_NOTE].off, s[OS_NOTE].addr, s[OS_NOTE].size, s[OS_NOTE].size,
                s[OS_NOTE].align),
    };
    el_put(buf, sizeof(Elf64_Ehdr), ph, sizeof ph);
}

static Elf64_Sym el_out_symbol(const ElOut *out, const ElSym *s)
{
    Elf64_Sym o = s->sym;
    o.st_name = s->str;
    o.st_shndx = (Elf64_Section)s->out_section;
    o.st_value = out->sec[s->out_section].addr + s->sym.st_value;
    return o;
}

/* .dynsym, .gnu.hash, .hash and .dynstr. */
static void el_write_dynamic_symbols(const ElIn *in, const ElOut *out, unsigned char *buf)
{
    const ElPlace *s = out->sec;
    size_t n = in->nsyms;
    for (size_t k = 0; k < n; k++) {
        Elf64_Sym o = el_out_symbol(out, &in->syms[out->dynsym_order[k]]);
        el_put(buf, s[OS_DYNSYM].off + (k + 1) * sizeof o, &o, sizeof o);
    }
    /* .gnu.hash: header, bloom filter, buckets, hash values */
    uint32_t head[4] = { out->gnu_buckets, 1, out->gnu_mask_words, EL_GNU_HASH_SHIFT2 };
    el_put(buf, s[OS_GNU_HASH].off, head, sizeof head);
    unsigned char *bloom = buf + s[OS_GNU_HASH].off + sizeof head;
    unsigned char *buckets = bloom + 8 * (size_t)out->gnu_mask_words;
    unsigned char *values = buckets + 4 * (size_t)out->gnu_buckets;
    for (size_t k = 0; k < n; k++) {
        uint32_t h = in->syms[out->dynsym_order[k]].gnu_hash;
        uint64_t word;
        size_t w = (h / 64) & (out->gnu_mask_words - 1);
        memcpy(&word, bloom + 8 * w, 8);
        word |= (uint64_t)1 << (h % 64);
        word |= (uint64_t)1 << ((h >> EL_GNU_HASH_SHIFT2) % 64);
        memcpy(bloom + 8 * w, &word, 8);
        uint32_t b = h % out->gnu_buckets;
        uint32_t index = (uint32_t)k + 1;
        if (k == 0 || in->syms[out->dynsym_order[k - 1]].gnu_hash % out->gnu_buckets != b)
            memcpy(buckets + 4 * (size_t)b, &index, 4);
        bool last = k + 1 == n || in->syms[out->dynsym_order[k + 1]].gnu_hash % out->gnu_buckets != b;
        uint32_t v = last ? h | 1 : h & ~1u;
        memcpy(values + 4 * k, &v, 4);
    }
    /* .hash: as many buckets as symbols (the null one included) */
    uint32_t nb = (uint32_t)n + 1;
    unsigned char *hash = buf + s[OS_HASH].off;
    memcpy(hash, &nb, 4);
    memcpy(hash + 4, &nb, 4);
    unsigned char *hbuckets = hash + 8, *chains = hash + 8 + 4 * (size_t)nb;
    for (size_t k = 0; k < n; k++) {
        uint32_t index = (uint32_t)k + 1;
        uint32_t b = el_sysv_hash(in->syms[out->dynsym_order[k]].name) % nb;
        memcpy(chains + 4 * (size_t)index, hbuckets + 4 * (size_t)b, 4);
        memcpy(hbuckets + 4 * (size_t)b, &index, 4);
    }
    for (size_t i = 0; i < n; i++)
        el_put(buf, s[OS_DYNSTR].off + in->syms[i].str, in->syms[i].name, strlen(in->syms[i].name) + 1);
}

static void el_write_dynamic(const ElOut *out, unsigned char *buf)
{
    const ElPlace *s = out->sec;
    Elf64_Dyn d[EL_DYNAMIC_SIZE / sizeof(Elf64_Dyn)] = {
        { DT_SYMTAB, { s[OS_DYNSYM].addr } },   { DT_SYMENT, { sizeof(Elf64_Sym) } },
        { DT_STRTAB, { s[OS_DYNSTR].addr } },   { DT_STRSZ, { s[OS_DYNSTR].size } },
        { DT_GNU_HASH, { s[OS_GNU_HASH].addr } }, { DT_HASH, { s[OS_HASH].addr } },
        { DT_NULL, { 0 } },
    };
    el_put(buf, s[OS_DYNAMIC].off, d, sizeof d);
}

/* .rodata with each descriptor's entry offset resolved: S + A - P. */
static void el_write_rodata(const ElIn *in, const ElOut *out, unsigned char *buf)
{
    const ElPlace *ro = &out->sec[OS_RODATA];
    el_put(buf, ro->off, in->obj + in->rodata.sh_offset, ro->size);
    size_t n = in->has_rela ? in->rela.sh_size / sizeof(Elf64_Rela) : 0;
    for (size_t i = 0; i < n; i++) {
        Elf64_Rela r;
        memcpy(&r, in->obj + in->rela.sh_offset + i * sizeof r, sizeof r);
        const ElSym *sym = &in->syms[ELF64_R_SYM(r.r_info) - 1];
        uint64_t S = out->sec[sym->out_section].addr + sym->sym.st_value;
        uint64_t v = S + (uint64_t)r.r_addend - (ro->addr + r.r_offset);
        el_put(buf, ro->off + r.r_offset, &v, 8);
    }
}

/* .symtab: the null symbol, _DYNAMIC (local, hidden), then the object's
 * symbols in its order; .strtab names them in that order, _DYNAMIC last. */
static void el_write_symtab(const ElIn *in, const ElOut *out, unsigned char *buf)
{
    const ElPlace *s = out->sec;
    uint32_t dynamic_name = (uint32_t)s[OS_DYNSTR].size;
    Elf64_Sym d = { .st_name = dynamic_name, .st_info = ELF64_ST_INFO(STB_LOCAL, STT_NOTYPE),
                    .st_other = STV_HIDDEN, .st_shndx = OS_DYNAMIC, .st_value = s[OS_DYNAMIC].addr };
    el_put(buf, s[OS_SYMTAB].off + sizeof d, &d, sizeof d);
    for (size_t i = 0; i < in->nsyms; i++) {
        Elf64_Sym o = el_out_symbol(out, &in->syms[i]);
        el_put(buf, s[OS_SYMTAB].off + (i + 2) * sizeof o, &o, sizeof o);
        el_put(buf, s[OS_STRTAB].off + in->syms[i].str, in->syms[i].name, strlen(in->syms[i].name) + 1);
    }
    el_put(buf, s[OS_STRTAB].off + dynamic_name, "_DYNAMIC", sizeof "_DYNAMIC");
}

static Elf64_Shdr el_shdr(const ElOut *out, int i, uint32_t type, uint64_t flags, uint32_t link,
                          uint32_t info, uint64_t entsize)
{
    const ElPlace *p = &out->sec[i];
    return (Elf64_Shdr){ .sh_name = out->sh_name[i], .sh_type = type, .sh_flags = flags,
                         .sh_addr = p->addr, .sh_offset = p->off, .sh_size = p->size,
                         .sh_link = link, .sh_info = info, .sh_addralign = p->align,
                         .sh_entsize = entsize };
}

static void el_write_section_headers(const ElIn *in, const ElOut *out, unsigned char *buf)
{
    Elf64_Shdr sh[OS_COUNT] = {
        [OS_NOTE] = el_shdr(out, OS_NOTE, SHT_NOTE, SHF_ALLOC, 0, 0, in->note.sh_entsize),
        [OS_DYNSYM] = el_shdr(out, OS_DYNSYM, SHT_DYNSYM, SHF_ALLOC, OS_DYNSTR, 1, sizeof(Elf64_Sym)),
        [OS_GNU_HASH] = el_shdr(out, OS_GNU_HASH, SHT_GNU_HASH, SHF_ALLOC, OS_DYNSYM, 0, 0),
        [OS_HASH] = el_shdr(out, OS_HASH, SHT_HASH, SHF_ALLOC, OS_DYNSYM, 0, 4),
        [OS_DYNSTR] = el_shdr(out, OS_DYNSTR, SHT_STRTAB, SHF_ALLOC, 0, 0, 0),
        [OS_RODATA] = el_shdr(out, OS_RODATA, SHT_PROGBITS, SHF_ALLOC, 0, 0, in->rodata.sh_entsize),
        [OS_TEXT] = el_shdr(out, OS_TEXT, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0, 0,
                            in->text.sh_entsize),
        [OS_DYNAMIC] = el_shdr(out, OS_DYNAMIC, SHT_DYNAMIC, SHF_ALLOC | SHF_WRITE, OS_DYNSTR, 0,
                               sizeof(Elf64_Dyn)),
        [OS_RELRO_PADDING] = el_shdr(out, OS_RELRO_PADDING, SHT_NOBITS, SHF_ALLOC | SHF_WRITE, 0, 0, 0),
        [OS_COMMENT] = el_shdr(out, OS_COMMENT, SHT_PROGBITS, SHF_MERGE | SHF_STRINGS, 0, 0, 1),
        [OS_SYMTAB] = el_shdr(out, OS_SYMTAB, SHT_SYMTAB, 0, OS_STRTAB, 2, sizeof(Elf64_Sym)),
        [OS_SHSTRTAB] = el_shdr(out, OS_SHSTRTAB, SHT_STRTAB, 0, 0, 0, 0),
        [OS_STRTAB] = el_shdr(out, OS_STRTAB, SHT_STRTAB, 0, 0, 0, 0),
    };
    el_put(buf, out->shoff, sh, sizeof sh);
    for (int i = 0; i < OS_COUNT; i++)
        el_put(buf, out->sec[OS_SHSTRTAB].off + out->sh_name[i], el_section_name[i],
               strlen(el_section_name[i]) + 1);
}

static unsigned char *el_write(const ElIn *in, const ElOut *out)
{
    unsigned char *buf = calloc(1, out->file_size);
    if (!buf)
        return NULL;
    el_write_header(in, out, buf);
    el_write_phdrs(out, buf);
    el_put(buf, out->sec[OS_NOTE].off, in->obj + in->note.sh_offset, out->sec[OS_NOTE].size);
    el_write_dynamic_symbols(in, out, buf);
    el_write_rodata(in, out, buf);
    el_put(buf, out->sec[OS_TEXT].off, in->obj + in->text.sh_offset, out->sec[OS_TEXT].size);
    el_write_dynamic(out, buf);
    el_put(buf, out->sec[OS_COMMENT].off, out->comment, out->sec[OS_COMMENT].size);
    el_write_symtab(in, out, buf);
    el_write_section_headers(in, out, buf);
    return buf;
}

unsigned char *cg_elf_link(const unsigned char *obj, size_t len, const char *linker_id,
                           size_t *out_len)
{
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
    /* the structures are written as the host lays them out */
    (void)obj, (void)len, (void)linker_id, (void)out_len;
    return NULL;
#else
    ElIn in = { .obj = obj, .len = len };
    ElOut out = { 0 };
    unsigned char *result = NULL;
    if (el_header_ok(&in) && el_read_sections(&in) && el_read_symbols(&in) &&
        el_relocations_ok(&in) && el_order_dynsym(&in, &out) &&
        el_merge_comment(&in, linker_id, &out) && el_layout(&in, &out)) {
        result = el_write(&in, &out);
        if (result)
            *out_len = out.file_size;
    }
    free(in.syms);
    free(out.dynsym_order);
    free(out.comment);
    return result;
#endif
}
