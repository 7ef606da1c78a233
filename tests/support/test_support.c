/* test_support.c - CUnit tests for support/bigint and support/floatfmt.
 *
 * Expected values come from outside the code under test wherever possible:
 * decimal constants computed with Python's integers, hand-derived encodings,
 * the x87 80-bit long double (exact for every int64) as a reference rounding
 * for integer->float, and glibc's printf/strtod for decimal text.  Loops
 * over whole encoding spaces count mismatches and report the first few, so
 * one broken rule gives one readable failure instead of thousands. */
#include "fxtest.h"
#include <CUnit/CUnit.h>
#include <fenv.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/bigint.h"
#include "support/diag.h"
#include "support/floatfmt.h"

/* ------------------------------------------------------------------------ */
/* helpers                                                                  */

/* A CUnit assertion whose message carries the actual values. */
static void check_at(bool ok, int line, const char *fmt, ...)
{
    char msg[512] = "";
    if (!ok) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
    }
    CU_assertImplementation(ok, (unsigned)line, msg, __FILE__, "", CU_FALSE);
}
#define CHECK(ok, ...) check_at((ok), __LINE__, __VA_ARGS__)

static void check_dec_at(BigInt v, const char *want, int line)
{
    char got[BIG_DEC_MAX];
    big_to_dec(v, got);
    check_at(strcmp(got, want) == 0, line, "big %s, want %s", got, want);
}
#define CHECK_DEC(v, want) check_dec_at((v), (want), __LINE__)

static void check_bits_at(const FloatFormat *f, uint64_t got, uint64_t want, const char *what, int line)
{
    check_at(got == want, line, "%s %s: got 0x%llx want 0x%llx", f->name, what, (unsigned long long)got,
             (unsigned long long)want);
}
#define CHECK_BITS(f, got, want, what) check_bits_at((f), (got), (want), (what), __LINE__)

static void check_repr_at(const FloatFormat *f, uint64_t bits, const char *want, int line)
{
    char got[FF_REPR_MAX];
    ff_repr(f, bits, got);
    check_at(strcmp(got, want) == 0, line, "%s repr(0x%llx) = \"%s\", want \"%s\"", f->name,
             (unsigned long long)bits, got, want);
}
#define CHECK_REPR(f, bits, want) check_repr_at((f), (bits), (want), __LINE__)

/* Mismatch counter for exhaustive loops: prints the first few, then one
 * CUnit assertion per loop via LOOP_DONE. */
typedef struct {
    long bad, total;
} Loop;

static void loop_check(Loop *l, bool ok, const char *fmt, ...)
{
    l->total++;
    if (ok)
        return;
    if (l->bad++ < 5) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "\n    mismatch: ");
        vfprintf(stderr, fmt, ap);
        va_end(ap);
    }
}
#define LOOP_DONE(l, what) CHECK((l).bad == 0, "%s: %ld of %ld cases wrong", (what), (l).bad, (l).total)

static BigInt parse_ok(const char *s)
{
    BigInt v = big_from_u64(0);
    CHECK(big_parse(s, &v), "big_parse(\"%s\") rejected", s);
    return v;
}

static BigInt pow2(unsigned n)
{
    return big_shl(big_from_u64(1), n);
}

static uint64_t xs_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd64(void)
{
    /* xorshift64*: deterministic, so failures reproduce. */
    xs_state ^= xs_state >> 12;
    xs_state ^= xs_state << 25;
    xs_state ^= xs_state >> 27;
    return xs_state * 2685821657736338717ull;
}

static double bits_to_double(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static const FfRound all_modes[5] = {FF_RNE, FF_DOWN, FF_UP, FF_TOWARD_ZERO, FF_NEAREST_AWAY};
static const char *const mode_names[5] = {"RNE", "DOWN", "UP", "TZ", "AWAY"};

static const FloatFormat *const narrow_formats[] = {
    &ff_f8e5m2, &ff_f8e4m3fn, &ff_f8e4m3fnuz, &ff_f8e4m3b11fnuz, &ff_f8e4m3,
    &ff_f6e2m3fn, &ff_f6e3m2fn, &ff_f8e8m0fnu, &ff_f4e2m1fn,
};
#define N_NARROW (int)(sizeof narrow_formats / sizeof narrow_formats[0])

static const FloatFormat *const all_formats[] = {
    &ff_float16, &ff_bfloat16, &ff_float32, &ff_float64, &ff_f8e5m2, &ff_f8e4m3fn, &ff_f8e4m3fnuz,
    &ff_f8e4m3b11fnuz, &ff_f8e4m3, &ff_f6e2m3fn, &ff_f6e3m2fn, &ff_f8e8m0fnu, &ff_f4e2m1fn,
};
#define N_ALL (int)(sizeof all_formats / sizeof all_formats[0])

/* ------------------------------------------------------------------------ */
/* bigint                                                                   */

static void test_big_construct(void)
{
    CHECK_DEC(big_from_i64(0), "0");
    CHECK_DEC(big_from_i64(-1), "-1");
    CHECK_DEC(big_from_i64(INT64_MIN), "-9223372036854775808");
    CHECK_DEC(big_from_u64(UINT64_MAX), "18446744073709551615");
    CHECK_DEC(pow2(64), "18446744073709551616");
    CHECK_DEC(big_neg(pow2(575)), "-123665200736552267030251260509823595017565674550605919957031528046448"
                                  "612553265933585158200530621522494798835713008069669675682517153375604"
                                  "983773077550946583958303386074349568");
    /* -2^575 is the most negative value; its negation wraps to itself. */
    CHECK(big_cmp(big_neg(big_neg(pow2(575))), big_neg(pow2(575))) == 0, "neg(MIN) != MIN");
    CHECK(big_to_i64(big_from_i64(-5)) == -5, "to_i64(-5)");
    CHECK(big_to_u64(big_from_i64(-1)) == UINT64_MAX, "to_u64(-1)");
    CHECK(big_to_u64(big_add(pow2(100), big_from_u64(7))) == 7, "to_u64 takes the low limb");
    CHECK(big_to_i64(big_sub(pow2(64), big_from_u64(1))) == -1, "to_i64 of 2^64-1");
}

static void test_big_parse_bases(void)
{
    const char *dec = "14319332214339123434594355107434932207486745591177155415502568244373159606415504"
                      "25377500316402721134722265221484510890221119247045866928844005034495251203";
    BigInt three321 = parse_ok(dec); /* 3^321, just below 2^509 */
    CHECK_DEC(three321, dec);
    BigInt hx = parse_ok("0x1b5724cf5ec72a967f46f0b4fff5f1ee2f5c62cdca1906712453303a28986163d7561bc9861b63"
                         "6f93d7f70b8ea7409a3870fa1b93524e2683101564367b1303");
    CHECK(big_cmp(hx, three321) == 0, "hex 3^321");
    BigInt oc = parse_ok("0o332562231727543452454775067413237775370756136561426334503101470444246300721211"
                         "41413075352606744606066615574475376702707247201150703417503344651116115014200"
                         "526206636611403");
    CHECK(big_cmp(oc, three321) == 0, "octal 3^321");
    BigInt uh = parse_ok("0X1B57_24CF_5EC7_2A96_7F46_F0B4_FFF5_F1EE_2F5C_62CD_CA19_0671_2453_303A_2898_6163"
                         "_D756_1BC9_861B_636F_93D7_F70B_8EA7_409A_3870_FA1B_9352_4E26_8310_1564_367B_1303");
    CHECK(big_cmp(uh, three321) == 0, "upper-case hex with separators");

    CHECK_DEC(parse_ok("0"), "0");
    CHECK_DEC(parse_ok("000"), "0");
    CHECK_DEC(parse_ok("0_0"), "0");
    CHECK_DEC(parse_ok("42"), "42");
    CHECK_DEC(parse_ok("1_000_000"), "1000000");
    CHECK_DEC(parse_ok("0xFF"), "255");
    CHECK_DEC(parse_ok("0xff"), "255");
    CHECK_DEC(parse_ok("0x_ff"), "255");
    CHECK_DEC(parse_ok("0o17"), "15");
    CHECK_DEC(parse_ok("0O7_7"), "63");
    CHECK_DEC(parse_ok("0b1010"), "10");
    CHECK_DEC(parse_ok("0B1011_0110"), "182");
    CHECK_DEC(parse_ok("0xFFFFFFFFFFFFFFFF"), "18446744073709551615");
    CHECK_DEC(parse_ok("0x1_0000_0000_0000_0000"), "18446744073709551616");
    CHECK_DEC(parse_ok("18446744073709551616"), "18446744073709551616");
}

static void test_big_parse_errors(void)
{
    static const char *const bad[] = {
        "",      "_",     "_1",    "1_",    "1__0",   "0x",     "0x_",   "0b",    "0o",   "0b2",
        "0o8",   "0xg",   "12a",   "1.0",   "-1",     "+1",     " 1",    "1 ",    "0x1_",  "0b1__0",
        "007",   "0_7",   "01",    "0xx1",  "0b_",    "1e3",    "0x__1", "9_",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        BigInt v;
        CHECK(!big_parse(bad[i], &v), "big_parse(\"%s\") accepted", bad[i]);
    }
    BigInt v;
    CHECK(!big_parse(NULL, &v), "NULL accepted");
}

static void test_big_parse_limits(void)
{
    const char *p511 = "6703903964971298549787012499102923063739682910296196688861780721860882015036773488400"
                       "937149083451713845015929093243025426876941405973284973216824503042048";
    const char *p512 = "1340780792994259709957402499820584612747936582059239337772356144372176403007354697680"
                       "1874298166903427690031858186486050853753882811946569946433649006084096";
    const char *p512m1 = "134078079299425970995740249982058461274793658205923933777235614437217640300735469768"
                         "01874298166903427690031858186486050853753882811946569946433649006084095";
    BigInt v = parse_ok(p511);
    CHECK(big_cmp(v, pow2(511)) == 0, "2^511 parses to 2^511");
    v = parse_ok(p512m1);
    CHECK(big_cmp(v, big_sub(pow2(512), big_from_u64(1))) == 0, "2^512-1 parses");
    CHECK(big_in_range(v), "2^512-1 in range");
    CHECK(!big_parse(p512, &v), "2^512 (decimal) accepted");
    char hex[200] = "0x1";
    for (int i = 0; i < 128; i++)
        strcat(hex, "0");
    CHECK(!big_parse(hex, &v), "2^512 (hex) accepted");
    hex[2] = '0'; /* 0x0000...: zero with many digits is fine */
    CHECK(big_parse(hex, &v) && big_is_zero(v), "long zero");
    char bin[600] = "0b";
    for (int i = 0; i < 512; i++)
        strcat(bin, "1");
    CHECK(big_parse(bin, &v) && big_cmp(v, big_sub(pow2(512), big_from_u64(1))) == 0, "512 ones");
    strcat(bin, "0");
    CHECK(!big_parse(bin, &v), "513-bit binary accepted");
    /* Far too long must not overflow internally either. */
    char huge[700];
    memset(huge, '9', 690);
    huge[690] = '\0';
    CHECK(!big_parse(huge, &v), "690 nines accepted");
}

static void test_big_in_range(void)
{
    CHECK(big_in_range(big_from_u64(0)), "0");
    CHECK(big_in_range(pow2(511)), "2^511");
    CHECK(!big_in_range(pow2(512)), "2^512");
    CHECK(big_in_range(big_sub(pow2(512), big_from_u64(1))), "2^512-1");
    CHECK(big_in_range(big_neg(big_sub(pow2(512), big_from_u64(1)))), "-(2^512-1)");
    CHECK(!big_in_range(big_neg(pow2(512))), "-2^512");
    CHECK(!big_in_range(big_neg(pow2(513))), "-2^513");
    CHECK(!big_in_range(big_neg(pow2(575))), "-2^575");
    CHECK(big_in_range(big_from_i64(-1)), "-1");
}

static void test_big_arith(void)
{
    BigInt a = big_add(pow2(300), big_from_u64(12345));
    BigInt b = parse_ok("369988485035126972924700782451696644186473100389722973815184405301748249");
    /* (2^300+12345) * 3^150 fits: exact product from Python. */
    CHECK_DEC(big_mul(a, b), "753679854846047267899384440144864253917750139939839468390372811092240440144627"
                             "161522254847534485430266542075487298092396322151480291031071934172772872361161"
                             "328529");
    CHECK_DEC(big_mul(big_neg(a), b), "-75367985484604726789938444014486425391775013993983946839037281109224"
                                      "04401446271615222548475344854302665420754872980923963221514802910310"
                                      "71934172772872361161328529");
    CHECK_DEC(big_add(big_from_i64(-5), big_from_u64(3)), "-2");
    CHECK_DEC(big_sub(big_from_u64(3), big_from_u64(5)), "-2");
    CHECK_DEC(big_add(big_from_u64(UINT64_MAX), big_from_u64(1)), "18446744073709551616");
    CHECK_DEC(big_sub(pow2(128), big_from_u64(1)), "340282366920938463463374607431768211455");
    CHECK_DEC(big_mul(big_from_i64(-3), big_from_i64(-7)), "21");
    CHECK_DEC(big_mul(big_from_i64(-3), big_from_i64(7)), "-21");
    /* (2^64-1)^2 = 2^128 - 2^65 + 1 */
    CHECK(big_cmp(big_mul(big_from_u64(UINT64_MAX), big_from_u64(UINT64_MAX)),
                  big_add(big_sub(pow2(128), pow2(65)), big_from_u64(1))) == 0,
          "(2^64-1)^2");
    /* Modulo 2^576: 2^300 * 2^300 vanishes, 2^575 + 2^575 wraps to 0. */
    CHECK(big_is_zero(big_mul(pow2(300), pow2(300))), "2^600 mod 2^576");
    CHECK(big_is_zero(big_add(pow2(575), pow2(575))), "2^576 mod 2^576");
    CHECK(big_cmp(big_mul(big_from_i64(-1), pow2(575)), pow2(575)) == 0, "-MIN wraps");
    /* (2^200+1)(2^200-1) = 2^400-1 */
    CHECK(big_cmp(big_mul(big_add(pow2(200), big_from_u64(1)), big_sub(pow2(200), big_from_u64(1))),
                  big_sub(pow2(400), big_from_u64(1))) == 0,
          "difference of squares");
}

/* The same square as a decimal (from Python), so printing and the
 * multiplication carry chain are checked independently. */
static void test_big_square_decimal(void)
{
    CHECK_DEC(big_mul(big_from_u64(UINT64_MAX), big_from_u64(UINT64_MAX)),
              "340282366920938463426481119284349108225");
}

static void test_big_division_signs(void)
{
    static const struct {
        int a, b, fq, fr, tq, tr;
    } t[] = {
        {7, 2, 3, 1, 3, 1},     {7, -2, -4, -1, -3, 1}, {-7, 2, -4, 1, -3, -1}, {-7, -2, 3, -1, 3, -1},
        {6, 3, 2, 0, 2, 0},     {-6, 3, -2, 0, -2, 0},  {6, -3, -2, 0, -2, 0},  {-6, -3, 2, 0, 2, 0},
        {0, 5, 0, 0, 0, 0},     {0, -5, 0, 0, 0, 0},    {1, 5, 0, 1, 0, 1},     {-1, 5, -1, 4, 0, -1},
        {1, -5, -1, -4, 0, 1},  {-1, -5, 0, -1, 0, -1}, {5, 1, 5, 0, 5, 0},     {-5, -1, 5, 0, 5, 0},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        BigInt q, r;
        big_divmod_floor(big_from_i64(t[i].a), big_from_i64(t[i].b), &q, &r);
        CHECK(big_to_i64(q) == t[i].fq && big_to_i64(r) == t[i].fr && big_fits(q, 64, true),
              "floor %d / %d = (%lld, %lld), want (%d, %d)", t[i].a, t[i].b, (long long)big_to_i64(q),
              (long long)big_to_i64(r), t[i].fq, t[i].fr);
        big_divmod_trunc(big_from_i64(t[i].a), big_from_i64(t[i].b), &q, &r);
        CHECK(big_to_i64(q) == t[i].tq && big_to_i64(r) == t[i].tr && big_fits(r, 64, true),
              "trunc %d / %d = (%lld, %lld), want (%d, %d)", t[i].a, t[i].b, (long long)big_to_i64(q),
              (long long)big_to_i64(r), t[i].tq, t[i].tr);
    }
}

static void test_big_division_large(void)
{
    BigInt a = parse_ok("14319332214339123434594355107434932207486745591177155415502568244373159606415504"
                        "25377500316402721134722265221484510890221119247045866928844005034495251203");
    BigInt b = parse_ok("3234476509624757991344647769100216810857203198904625400933895331391691459636928060001");
    BigInt q, r;
    big_divmod_floor(a, b, &q, &r);
    CHECK_DEC(q, "442709420573295650765448313095786390565064749085997634877320790554500");
    CHECK_DEC(r, "2385832411801699493134674393445694098334191789350957099418046955138068083704434696703");
    big_divmod_floor(big_neg(a), b, &q, &r);
    CHECK_DEC(q, "-442709420573295650765448313095786390565064749085997634877320790554501");
    CHECK_DEC(r, "848644097823058498209973375654522712523011409553668301515848376253623375932493363298");
    big_divmod_trunc(big_neg(a), b, &q, &r);
    CHECK_DEC(q, "-442709420573295650765448313095786390565064749085997634877320790554500");
    CHECK_DEC(r, "-2385832411801699493134674393445694098334191789350957099418046955138068083704434696703");
    /* MIN / -1 wraps to MIN with remainder 0 (the language's rule at every
     * width falls out of big_wrap after this). */
    big_divmod_floor(big_neg(pow2(575)), big_from_i64(-1), &q, &r);
    CHECK(big_cmp(q, big_neg(pow2(575))) == 0 && big_is_zero(r), "MIN // -1");
    big_divmod_trunc(big_neg(pow2(575)), big_from_i64(3), &q, &r);
    CHECK(big_cmp(big_add(big_mul(q, big_from_i64(3)), r), big_neg(pow2(575))) == 0, "MIN trunc 3");
    CHECK(big_sign(r) <= 0, "MIN trunc 3: remainder sign");

    /* Identity and remainder bounds on random operands of every size. */
    Loop l = {0, 0};
    for (int i = 0; i < 3000; i++) {
        BigInt x, y;
        for (int k = 0; k < BIG_LIMBS; k++) {
            x.w[k] = rnd64();
            y.w[k] = rnd64();
        }
        x = big_wrap(x, 1 + (int)(rnd64() % 512), true);
        y = big_wrap(y, 1 + (int)(rnd64() % 512), true);
        if (big_is_zero(y))
            continue;
        BigInt fq, fr, tq, tr;
        big_divmod_floor(x, y, &fq, &fr);
        big_divmod_trunc(x, y, &tq, &tr);
        bool ok = big_cmp(big_add(big_mul(fq, y), fr), x) == 0 && big_cmp(big_add(big_mul(tq, y), tr), x) == 0;
        BigInt ay = big_sign(y) < 0 ? big_neg(y) : y;
        BigInt afr = big_sign(fr) < 0 ? big_neg(fr) : fr, atr = big_sign(tr) < 0 ? big_neg(tr) : tr;
        ok = ok && big_cmp(afr, ay) < 0 && big_cmp(atr, ay) < 0;
        ok = ok && (big_is_zero(fr) || big_sign(fr) == big_sign(y));
        ok = ok && (big_is_zero(tr) || big_sign(tr) == big_sign(x));
        loop_check(&l, ok, "divmod identity, case %d", i);
    }
    LOOP_DONE(l, "random divmod");
}

static void test_big_compare_bitwise(void)
{
    CHECK(big_cmp(big_from_i64(-1), big_from_i64(0)) == -1, "-1 < 0");
    CHECK(big_cmp(big_from_i64(0), big_from_i64(-1)) == 1, "0 > -1");
    CHECK(big_cmp(pow2(500), big_from_i64(-1)) == 1, "2^500 > -1");
    CHECK(big_cmp(big_neg(pow2(500)), big_from_i64(-1)) == -1, "-2^500 < -1");
    CHECK(big_cmp(big_from_i64(-3), big_from_i64(-2)) == -1, "-3 < -2");
    CHECK(big_cmp(pow2(200), pow2(200)) == 0, "equal");
    CHECK(big_sign(big_from_i64(-7)) == -1 && big_sign(big_from_i64(0)) == 0 && big_sign(pow2(575)) == -1 &&
              big_sign(pow2(574)) == 1,
          "big_sign");
    CHECK(big_is_zero(big_from_u64(0)) && !big_is_zero(pow2(575)), "big_is_zero");
    CHECK_DEC(big_and(big_from_i64(6), big_from_i64(3)), "2");
    CHECK_DEC(big_or(big_from_i64(6), big_from_i64(3)), "7");
    CHECK_DEC(big_xor(big_from_i64(6), big_from_i64(3)), "5");
    CHECK_DEC(big_not(big_from_i64(0)), "-1");
    CHECK_DEC(big_not(big_from_i64(5)), "-6");
    CHECK_DEC(big_and(big_from_i64(-1), pow2(300)), "203703597633448608626844568840937816105146839366593625063614044935438"
                                                    "1299763336706183397376");
    CHECK_DEC(big_and(big_from_i64(-8), big_from_i64(13)), "8");
    CHECK_DEC(big_or(big_from_i64(-8), big_from_i64(3)), "-5");
    CHECK_DEC(big_xor(big_from_i64(-1), big_from_i64(5)), "-6");
}

static void test_big_shifts(void)
{
    CHECK_DEC(big_shl(big_from_u64(1), 0), "1");
    CHECK_DEC(big_shl(big_from_u64(1), 63), "9223372036854775808");
    CHECK_DEC(big_shl(big_from_u64(3), 64), "55340232221128654848");
    CHECK_DEC(big_shl(big_from_u64(3), 65), "110680464442257309696");
    CHECK_DEC(big_shl(big_from_i64(-1), 1), "-2");
    CHECK(big_cmp(big_shl(big_from_u64(1), 575), big_neg(pow2(575))) == 0, "1 << 575 is MIN");
    CHECK(big_is_zero(big_shl(big_from_u64(1), 576)), "1 << 576");
    CHECK(big_is_zero(big_shl(big_from_i64(-1), 1000)), "-1 << 1000");
    CHECK(big_is_zero(big_shl(big_from_u64(3), 575 + 1)), "3 << 576");
    CHECK_DEC(big_shr(big_from_i64(-1), 5), "-1");
    CHECK_DEC(big_shr(big_from_i64(-7), 1), "-4"); /* arithmetic: floor */
    CHECK_DEC(big_shr(big_from_i64(7), 1), "3");
    CHECK_DEC(big_shr(big_from_i64(-8), 3), "-1");
    CHECK_DEC(big_shr(big_from_i64(-9), 3), "-2");
    CHECK_DEC(big_shr(pow2(100), 36), "18446744073709551616");
    CHECK_DEC(big_shr(big_add(pow2(128), pow2(64)), 64), "18446744073709551617");
    CHECK_DEC(big_shr(big_neg(pow2(575)), 575), "-1");
    CHECK_DEC(big_shr(big_neg(pow2(575)), 574), "-2");
    CHECK_DEC(big_shr(pow2(574), 574), "1");
    CHECK_DEC(big_shr(pow2(574), 576), "0");
    CHECK_DEC(big_shr(big_from_i64(-5), 576), "-1");
    CHECK_DEC(big_shr(big_from_i64(-5), 100000), "-1");
    CHECK_DEC(big_shr(big_from_i64(5), 100000), "0");
    /* shl then shr returns the value when nothing falls off. */
    Loop l = {0, 0};
    for (unsigned n = 0; n < 576; n++) {
        BigInt v = big_from_i64(-12345);
        BigInt back = big_shr(big_shl(v, n), n);
        loop_check(&l, n > 560 || big_cmp(back, v) == 0, "shl/shr %u", n);
        BigInt p = big_shl(big_from_u64(1), n);
        loop_check(&l, big_cmp(big_shr(p, n), n == 575 ? big_from_i64(-1) : big_from_u64(1)) == 0, "2^%u >> %u",
                   n, n);
    }
    LOOP_DONE(l, "shift round trips");
}

static void test_big_wrap(void)
{
    BigInt v = big_add(pow2(100), big_from_u64(7));
    CHECK_DEC(big_wrap(v, 64, false), "7");
    CHECK_DEC(big_wrap(v, 64, true), "7");
    CHECK_DEC(big_wrap(v, 128, false), "1267650600228229401496703205383");
    CHECK_DEC(big_wrap(v, 101, true), "-1267650600228229401496703205369");
    CHECK_DEC(big_wrap(big_from_i64(200), 8, true), "-56");
    CHECK_DEC(big_wrap(big_from_i64(200), 8, false), "200");
    CHECK_DEC(big_wrap(big_from_i64(20), 4, true), "4");
    CHECK_DEC(big_wrap(big_from_i64(20), 4, false), "4");
    CHECK_DEC(big_wrap(big_from_i64(12), 4, true), "-4");
    CHECK_DEC(big_wrap(big_from_i64(-9), 4, true), "7");
    CHECK_DEC(big_wrap(big_from_i64(-1), 64, false), "18446744073709551615");
    CHECK_DEC(big_wrap(big_from_i64(-1), 64, true), "-1");
    CHECK_DEC(big_wrap(big_from_i64(-1), 8, false), "255");
    CHECK_DEC(big_wrap(big_from_i64(-1), 32, false), "4294967295");
    CHECK_DEC(big_wrap(big_from_i64(-1), 128, false), "340282366920938463463374607431768211455");
    CHECK_DEC(big_wrap(big_from_i64(-1), 1, false), "1");
    CHECK_DEC(big_wrap(big_from_i64(-1), 1, true), "-1");
    CHECK_DEC(big_wrap(big_from_i64(1), 1, true), "-1"); /* not special-cased */
    CHECK_DEC(big_wrap(big_from_i64(2), 1, true), "0");
    CHECK_DEC(big_wrap(big_from_i64(3), 1, false), "1");
    CHECK_DEC(big_wrap(big_from_u64(0xFFFFFFFFull), 32, true), "-1");
    CHECK_DEC(big_wrap(big_from_u64(0x80000000ull), 32, true), "-2147483648");
    CHECK_DEC(big_wrap(big_from_u64(0x7FFFFFFFull), 32, true), "2147483647");
    CHECK_DEC(big_wrap(big_add(big_from_u64(0xFFFFFFFFull), big_from_u64(2)), 32, false), "1");
    CHECK_DEC(big_wrap(pow2(127), 128, true), "-170141183460469231731687303715884105728");
    CHECK_DEC(big_wrap(pow2(127), 128, false), "170141183460469231731687303715884105728");
    CHECK_DEC(big_wrap(pow2(128), 128, false), "0");
    CHECK_DEC(big_wrap(big_neg(pow2(64)), 64, false), "0");
    CHECK_DEC(big_wrap(big_from_u64(UINT64_MAX), 64, true), "-1");
    CHECK_DEC(big_wrap(big_neg(pow2(511)), 512, true), "-670390396497129854978701249910292306373968291029619668886178"
                                                       "072186088201503677348840093714908345171384501592909324302542"
                                                       "6876941405973284973216824503042048");
    CHECK_DEC(big_wrap(pow2(511), 512, false), "670390396497129854978701249910292306373968291029619668886178072186"
                                               "088201503677348840093714908345171384501592909324302542687694140597"
                                               "3284973216824503042048");
    /* Uint8(Int32(-1)) == 255 */
    CHECK_DEC(big_wrap(big_wrap(big_from_i64(-1), 32, true), 8, false), "255");

    CHECK(big_fits(big_from_i64(127), 8, true) && !big_fits(big_from_i64(128), 8, true), "fits Int8");
    CHECK(big_fits(big_from_i64(-128), 8, true) && !big_fits(big_from_i64(-129), 8, true), "fits Int8 low");
    CHECK(big_fits(big_from_i64(255), 8, false) && !big_fits(big_from_i64(256), 8, false), "fits Uint8");
    CHECK(!big_fits(big_from_i64(-1), 8, false), "-1 does not fit Uint8");
    CHECK(big_fits(big_from_i64(7), 4, true) && !big_fits(big_from_i64(8), 4, true) &&
              big_fits(big_from_i64(-8), 4, true),
          "fits Int4");
    CHECK(big_fits(big_from_i64(INT64_MIN), 64, true) && !big_fits(pow2(63), 64, true) &&
              big_fits(pow2(63), 64, false) && !big_fits(pow2(64), 64, false),
          "fits 64");
    CHECK(big_fits(big_sub(pow2(128), big_from_u64(1)), 128, false) && !big_fits(pow2(128), 128, false) &&
              !big_fits(pow2(127), 128, true) && big_fits(big_neg(pow2(127)), 128, true),
          "fits 128");
    CHECK(big_fits(big_from_i64(0), 1, true) && big_fits(big_from_i64(-1), 1, true) &&
              !big_fits(big_from_i64(1), 1, true) && big_fits(big_from_i64(1), 1, false),
          "fits 1");
}

static void test_big_to_dec_and_double(void)
{
    char buf[BIG_DEC_MAX];
    CHECK(strcmp(big_to_dec(big_from_i64(0), buf), "0") == 0, "0");
    CHECK(big_to_dec(big_from_i64(-42), buf) == buf && strcmp(buf, "-42") == 0, "-42 returns buf");
    CHECK_DEC(big_from_u64(10000000000000000000ull), "10000000000000000000");
    CHECK_DEC(big_mul(big_from_u64(10000000000000000000ull), big_from_u64(10000000000000000000ull)),
              "100000000000000000000000000000000000000");
    CHECK_DEC(big_add(big_mul(big_from_u64(10000000000000000000ull), big_from_u64(10000000000000000000ull)),
                      big_from_u64(5)),
              "100000000000000000000000000000000000005");
    /* Every decimal string from 0 to 10^40 in powers of ten round-trips. */
    Loop l = {0, 0};
    BigInt p = big_from_u64(1);
    char want[64] = "1";
    for (int i = 0; i < 40; i++) {
        big_to_dec(p, buf);
        loop_check(&l, strcmp(buf, want) == 0, "10^%d printed %s", i, buf);
        p = big_mul(p, big_from_u64(10));
        strcat(want, "0");
    }
    LOOP_DONE(l, "powers of ten");

    CHECK_DEC(big_from_double_trunc(0.0), "0");
    CHECK_DEC(big_from_double_trunc(-0.0), "0");
    CHECK_DEC(big_from_double_trunc(0.99), "0");
    CHECK_DEC(big_from_double_trunc(-0.99), "0");
    CHECK_DEC(big_from_double_trunc(1.9), "1");
    CHECK_DEC(big_from_double_trunc(-1.9), "-1");
    CHECK_DEC(big_from_double_trunc(-2.5), "-2");
    CHECK_DEC(big_from_double_trunc(4503599627370495.5), "4503599627370495");
    CHECK_DEC(big_from_double_trunc(9007199254740993.0), "9007199254740992");
    CHECK_DEC(big_from_double_trunc(0x1p63), "9223372036854775808");
    CHECK_DEC(big_from_double_trunc(-0x1p63), "-9223372036854775808");
    CHECK_DEC(big_from_double_trunc(0x1p100), "1267650600228229401496703205376");
    CHECK_DEC(big_from_double_trunc(1e20), "100000000000000000000");
    CHECK_DEC(big_from_double_trunc(-1.5e300 / 1e200), "-1500000000000000120987781275926330616227216625767737540587541"
                                                       "0862691518784161776460672347581389471744");
    CHECK(big_cmp(big_from_double_trunc(0x1.fffffffffffffp574), big_sub(pow2(575), pow2(522))) == 0, "near 2^575");
}

/* ------------------------------------------------------------------------ */
/* floatfmt: decoding                                                       */

static void test_ff_table(void)
{
    for (int i = 0; i < N_ALL; i++) {
        const FloatFormat *f = all_formats[i];
        CHECK(f->has_sign + f->exp_bits + f->man_bits == f->width, "%s field widths", f->name);
        CHECK(f->has_inf == (f->nan == FF_NAN_IEEE), "%s: infinities exactly in IEEE formats", f->name);
    }
    CHECK(strcmp(ff_float16.name, "Float16") == 0 && strcmp(ff_f8e4m3fnuz.name, "Float8E4M3FNUZ") == 0,
          "names");
}

static void test_ff_to_double(void)
{
    static const struct {
        const FloatFormat *f;
        uint64_t bits;
        double want;
    } t[] = {
        {&ff_float16, 0x3C00, 1.0},       {&ff_float16, 0x7BFF, 65504.0},      {&ff_float16, 0x0001, 0x1p-24},
        {&ff_float16, 0x0400, 0x1p-14},   {&ff_float16, 0x03FF, 0x1.ff8p-15},  {&ff_float16, 0xC000, -2.0},
        {&ff_bfloat16, 0x3F80, 1.0},      {&ff_bfloat16, 0x7F7F, 0x1.fep127},  {&ff_bfloat16, 0x0001, 0x1p-133},
        {&ff_float32, 0x3DCCCCCD, 0x1.99999ap-4}, {&ff_float32, 0x00000001, 0x1p-149},
        {&ff_float32, 0x7F7FFFFF, 0x1.fffffep127}, {&ff_float64, 0x3FF0000000000000ull, 1.0},
        {&ff_float64, 1, 0x1p-1074},
        {&ff_f8e5m2, 0x7B, 57344.0},      {&ff_f8e5m2, 0x01, 0x1p-16},         {&ff_f8e5m2, 0x3C, 1.0},
        {&ff_f8e4m3fn, 0x7E, 448.0},      {&ff_f8e4m3fn, 0x01, 0x1p-9},        {&ff_f8e4m3fn, 0x38, 1.0},
        {&ff_f8e4m3fn, 0xFE, -448.0},     {&ff_f8e4m3fn, 0x80, -0.0},
        {&ff_f8e4m3fnuz, 0x7F, 240.0},    {&ff_f8e4m3fnuz, 0x01, 0x1p-10},     {&ff_f8e4m3fnuz, 0x40, 1.0},
        {&ff_f8e4m3fnuz, 0xFF, -240.0},
        {&ff_f8e4m3b11fnuz, 0x7F, 30.0},  {&ff_f8e4m3b11fnuz, 0x01, 0x1p-13},  {&ff_f8e4m3b11fnuz, 0x58, 1.0},
        {&ff_f8e4m3, 0x77, 240.0},        {&ff_f8e4m3, 0x01, 0x1p-9},          {&ff_f8e4m3, 0x38, 1.0},
        {&ff_f6e2m3fn, 0x1F, 7.5},        {&ff_f6e2m3fn, 0x01, 0.125},         {&ff_f6e2m3fn, 0x08, 1.0},
        {&ff_f6e2m3fn, 0x3F, -7.5},       {&ff_f6e2m3fn, 0x20, -0.0},
        {&ff_f6e3m2fn, 0x1F, 28.0},       {&ff_f6e3m2fn, 0x01, 0.0625},        {&ff_f6e3m2fn, 0x0C, 1.0},
        {&ff_f4e2m1fn, 0x7, 6.0},         {&ff_f4e2m1fn, 0x1, 0.5},            {&ff_f4e2m1fn, 0x2, 1.0},
        {&ff_f4e2m1fn, 0xF, -6.0},        {&ff_f4e2m1fn, 0x8, -0.0},
        {&ff_f8e8m0fnu, 0x7F, 1.0},       {&ff_f8e8m0fnu, 0x00, 0x1p-127},     {&ff_f8e8m0fnu, 0xFE, 0x1p127},
        {&ff_f8e8m0fnu, 0x80, 2.0},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        double got = ff_to_double(t[i].f, t[i].bits);
        CHECK(got == t[i].want && signbit(got) == signbit(t[i].want), "%s to_double(0x%llx) = %a, want %a",
              t[i].f->name, (unsigned long long)t[i].bits, got, t[i].want);
    }
    CHECK(isinf(ff_to_double(&ff_float16, 0xFC00)) && ff_to_double(&ff_float16, 0xFC00) < 0, "f16 -inf");
    CHECK(isnan(ff_to_double(&ff_f8e4m3fnuz, 0x80)), "FNUZ 0x80 is NaN");
    CHECK(isnan(ff_to_double(&ff_f8e8m0fnu, 0xFF)), "E8M0 0xFF is NaN");
    CHECK(isnan(ff_to_double(&ff_f8e4m3fn, 0x7F)) && isnan(ff_to_double(&ff_f8e4m3fn, 0xFF)), "E4M3FN NaNs");
}

static void test_ff_classify(void)
{
    static const struct {
        const FloatFormat *f;
        int nans, infs;
    } t[] = {
        {&ff_f8e5m2, 6, 2},        {&ff_f8e4m3fn, 2, 0}, {&ff_f8e4m3fnuz, 1, 0}, {&ff_f8e4m3b11fnuz, 1, 0},
        {&ff_f8e4m3, 14, 2},       {&ff_f6e2m3fn, 0, 0}, {&ff_f6e3m2fn, 0, 0},   {&ff_f8e8m0fnu, 1, 0},
        {&ff_f4e2m1fn, 0, 0},      {&ff_float16, 2046, 2}, {&ff_bfloat16, 254, 2},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        int nans = 0, infs = 0;
        for (uint64_t b = 0; b < ((uint64_t)1 << t[i].f->width); b++) {
            nans += ff_is_nan(t[i].f, b);
            infs += ff_is_inf(t[i].f, b);
            /* to_double agrees with the predicates */
            double d = ff_to_double(t[i].f, b);
            if ((isnan(d) != 0) != ff_is_nan(t[i].f, b) || (isinf(d) != 0) != ff_is_inf(t[i].f, b))
                nans += 100000;
        }
        CHECK(nans == t[i].nans && infs == t[i].infs, "%s: %d NaNs %d infs, want %d / %d", t[i].f->name, nans,
              infs, t[i].nans, t[i].infs);
    }
    CHECK(ff_is_nan(&ff_float32, 0x7FC00000) && ff_is_nan(&ff_float32, 0xFF800001) &&
              !ff_is_nan(&ff_float32, 0x7F800000) && ff_is_inf(&ff_float32, 0xFF800000),
          "f32 classify");
    CHECK(ff_is_nan(&ff_float64, 0x7FF8000000000000ull) && ff_is_inf(&ff_float64, 0x7FF0000000000000ull) &&
              !ff_is_nan(&ff_float64, 0x7FEFFFFFFFFFFFFFull),
          "f64 classify");
}

/* ------------------------------------------------------------------------ */
/* floatfmt: rounding                                                       */

static uint64_t canonical_nan(const FloatFormat *f)
{
    if (f == &ff_float16) return 0x7E00;
    if (f == &ff_bfloat16) return 0x7FC0;
    if (f == &ff_float32) return 0x7FC00000;
    if (f == &ff_float64) return 0x7FF8000000000000ull;
    if (f == &ff_f8e5m2) return 0x7E;
    if (f == &ff_f8e4m3) return 0x7C;
    if (f == &ff_f8e4m3fn) return 0x7F;
    if (f == &ff_f8e4m3fnuz || f == &ff_f8e4m3b11fnuz) return 0x80;
    if (f == &ff_f8e8m0fnu) return 0xFF;
    return 0; /* FP6/FP4: no NaN, +0 by our rule */
}

/* Every encoding of a small format survives to_double/from_double in every
 * mode (an exact value needs no rounding); NaNs become the canonical NaN. */
static void roundtrip_all(const FloatFormat *f, Loop *l)
{
    for (uint64_t b = 0; b < ((uint64_t)1 << f->width); b++) {
        double d = ff_to_double(f, b);
        for (int m = 0; m < 5; m++) {
            uint64_t got = ff_from_double(f, d, all_modes[m]);
            uint64_t want = ff_is_nan(f, b) ? canonical_nan(f) : b;
            loop_check(l, got == want, "%s 0x%llx %s -> 0x%llx", f->name, (unsigned long long)b, mode_names[m],
                       (unsigned long long)got);
        }
    }
}

static void test_ff_roundtrip_narrow(void)
{
    for (int i = 0; i < N_NARROW; i++) {
        Loop l = {0, 0};
        roundtrip_all(narrow_formats[i], &l);
        LOOP_DONE(l, narrow_formats[i]->name);
    }
}

static void test_ff_roundtrip_16(void)
{
    Loop l = {0, 0};
    roundtrip_all(&ff_float16, &l);
    LOOP_DONE(l, "Float16 all encodings");
    Loop m = {0, 0};
    roundtrip_all(&ff_bfloat16, &m);
    LOOP_DONE(m, "BFloat16 all encodings");
}

static void test_ff_roundtrip_32_64(void)
{
    Loop l = {0, 0};
    for (int i = 0; i < 200000; i++) {
        uint64_t b = rnd64() & 0xFFFFFFFFu;
        float x;
        uint32_t b32 = (uint32_t)b;
        memcpy(&x, &b32, sizeof x);
        double d = ff_to_double(&ff_float32, b);
        /* the host's float->double widening is exact: compare with it */
        bool ok = isnan(x) ? isnan(d) : d == (double)x;
        uint64_t back = ff_from_double(&ff_float32, d, all_modes[i % 5]);
        ok = ok && back == (isnan(x) ? 0x7FC00000u : b);
        loop_check(&l, ok, "f32 0x%08llx", (unsigned long long)b);
        /* the host's double->float cast is RNE: compare a random double */
        double y = bits_to_double(rnd64());
        float yf = (float)y;
        uint32_t yb;
        memcpy(&yb, &yf, sizeof yb);
        loop_check(&l, isnan(y) || ff_from_double(&ff_float32, y, FF_RNE) == yb, "f32 of %a", y);
        uint64_t z = rnd64();
        loop_check(&l, ff_from_double(&ff_float64, bits_to_double(z), all_modes[i % 5]) ==
                           (isnan(bits_to_double(z)) ? 0x7FF8000000000000ull : z),
                   "f64 0x%llx", (unsigned long long)z);
    }
    LOOP_DONE(l, "Float32/Float64 random");
}

/* For every pair of adjacent finite values a < b of a format, the midpoint,
 * just above and just below it, in all modes and both signs, against a rule
 * written from the definitions (encodings of one sign are value-ordered). */
static uint64_t top_positive_finite(const FloatFormat *f)
{
    uint64_t b = ((uint64_t)1 << (f->width - f->has_sign)) - 1;
    while (ff_is_nan(f, b) || ff_is_inf(f, b))
        b--;
    return b;
}

static uint64_t negate_bits(const FloatFormat *f, uint64_t b)
{
    return b | ((uint64_t)1 << (f->width - 1));
}

static void check_between(const FloatFormat *f, uint64_t ea, uint64_t eb, Loop *l)
{
    double a = ff_to_double(f, ea), b = ff_to_double(f, eb), mid = a + (b - a) / 2;
    /* E8M0 keeps one bit of precision, so a tie rounds up (see floatfmt.c). */
    uint64_t even = f == &ff_f8e8m0fnu ? eb : ((ea & 1) ? eb : ea);
    double above = nextafter(mid, INFINITY), below = nextafter(mid, -INFINITY);
    struct {
        double x;
        uint64_t want[5]; /* RNE DOWN UP TZ AWAY for +x */
    } c[3] = {
        {mid, {even, ea, eb, ea, eb}},
        {above, {eb, ea, eb, ea, eb}},
        {below, {ea, ea, eb, ea, ea}},
    };
    for (int k = 0; k < 3; k++) {
        for (int m = 0; m < 5; m++) {
            uint64_t got = ff_from_double(f, c[k].x, all_modes[m]);
            loop_check(l, got == c[k].want[m], "%s %a %s -> 0x%llx want 0x%llx", f->name, c[k].x, mode_names[m],
                       (unsigned long long)got, (unsigned long long)c[k].want[m]);
            if (!f->has_sign)
                continue;
            /* Mirror: DOWN and UP swap roles, the rest are symmetric; the
             * zero of FNUZ formats stays positive. */
            int mm = m == 1 ? 2 : m == 2 ? 1 : m;
            uint64_t w = c[k].want[mm];
            uint64_t wn = (w == 0 && !f->has_neg_zero) ? 0 : negate_bits(f, w);
            got = ff_from_double(f, -c[k].x, all_modes[m]);
            loop_check(l, got == wn, "%s %a %s -> 0x%llx want 0x%llx", f->name, -c[k].x, mode_names[m],
                       (unsigned long long)got, (unsigned long long)wn);
        }
    }
}

static void test_ff_ties_and_modes_exhaustive(void)
{
    const FloatFormat *fs[N_NARROW + 2];
    for (int i = 0; i < N_NARROW; i++)
        fs[i] = narrow_formats[i];
    fs[N_NARROW] = &ff_float16;
    fs[N_NARROW + 1] = &ff_bfloat16;
    for (int i = 0; i < N_NARROW + 2; i++) {
        const FloatFormat *f = fs[i];
        Loop l = {0, 0};
        uint64_t top = top_positive_finite(f);
        for (uint64_t e = 0; e < top; e++)
            check_between(f, e, e + 1, &l);
        LOOP_DONE(l, f->name);
    }
}

static void test_ff_modes_examples(void)
{
    static const struct {
        const FloatFormat *f;
        double x;
        uint64_t want[5]; /* RNE DOWN UP TZ AWAY */
    } t[] = {
        {&ff_float32, 0.1, {0x3DCCCCCD, 0x3DCCCCCC, 0x3DCCCCCD, 0x3DCCCCCC, 0x3DCCCCCD}},
        {&ff_float32, -0.1, {0xBDCCCCCD, 0xBDCCCCCD, 0xBDCCCCCC, 0xBDCCCCCC, 0xBDCCCCCD}},
        {&ff_float32, 1.0 / 3, {0x3EAAAAAB, 0x3EAAAAAA, 0x3EAAAAAB, 0x3EAAAAAA, 0x3EAAAAAB}},
        {&ff_float32, -1.0 / 3, {0xBEAAAAAB, 0xBEAAAAAB, 0xBEAAAAAA, 0xBEAAAAAA, 0xBEAAAAAB}},
        /* exact ties in Float16: 1 + 2^-11 lies between 0x3C00 (even) and 0x3C01 */
        {&ff_float16, 1.0 + 0x1p-11, {0x3C00, 0x3C00, 0x3C01, 0x3C00, 0x3C01}},
        {&ff_float16, 1.0 + 3 * 0x1p-11, {0x3C02, 0x3C01, 0x3C02, 0x3C01, 0x3C02}},
        {&ff_float16, -(1.0 + 3 * 0x1p-11), {0xBC02, 0xBC02, 0xBC01, 0xBC01, 0xBC02}},
        {&ff_float16, -(1.0 + 0x1p-11), {0xBC00, 0xBC01, 0xBC00, 0xBC00, 0xBC01}},
        {&ff_float16, 0.1, {0x2E66, 0x2E66, 0x2E67, 0x2E66, 0x2E66}},
        {&ff_bfloat16, 1.0 + 0x1p-8, {0x3F80, 0x3F80, 0x3F81, 0x3F80, 0x3F81}},
        {&ff_bfloat16, 1.0 + 3 * 0x1p-8, {0x3F82, 0x3F81, 0x3F82, 0x3F81, 0x3F82}},
        {&ff_bfloat16, -3.14159, {0xC049, 0xC04A, 0xC049, 0xC049, 0xC049}},
        /* narrow formats: ties between neighbours */
        {&ff_f8e4m3fn, 1.0625, {0x38, 0x38, 0x39, 0x38, 0x39}},  /* between 1 and 1.125 */
        {&ff_f8e4m3fn, 1.1875, {0x3A, 0x39, 0x3A, 0x39, 0x3A}},  /* between 1.125 and 1.25 */
        {&ff_f8e4m3fn, -1.1875, {0xBA, 0xBA, 0xB9, 0xB9, 0xBA}},
        {&ff_f8e5m2, 1.125, {0x3C, 0x3C, 0x3D, 0x3C, 0x3D}},
        {&ff_f8e5m2, 1.375, {0x3E, 0x3D, 0x3E, 0x3D, 0x3E}},
        {&ff_f4e2m1fn, 2.5, {0x4, 0x4, 0x5, 0x4, 0x5}},          /* between 2 and 3 */
        {&ff_f4e2m1fn, 5.0, {0x6, 0x6, 0x7, 0x6, 0x7}},          /* between 4 and 6 */
        {&ff_f4e2m1fn, -5.0, {0xE, 0xF, 0xE, 0xE, 0xF}},
        {&ff_f4e2m1fn, 0.25, {0x0, 0x0, 0x1, 0x0, 0x1}},         /* half the smallest subnormal */
        {&ff_f4e2m1fn, -0.25, {0x8, 0x9, 0x8, 0x8, 0x9}},
        {&ff_f6e3m2fn, 0.03125, {0x00, 0x00, 0x01, 0x00, 0x01}},
        {&ff_f6e2m3fn, 0.0625, {0x00, 0x00, 0x01, 0x00, 0x01}},
        {&ff_f8e4m3fnuz, -0x1p-11, {0x00, 0x81, 0x00, 0x00, 0x81}}, /* -half smallest: no -0 */
        {&ff_f8e4m3b11fnuz, -0x1p-14, {0x00, 0x81, 0x00, 0x00, 0x81}},
        {&ff_f8e4m3, 1.0625, {0x38, 0x38, 0x39, 0x38, 0x39}},
        /* E8M0: power-of-two grid, ties (1.5 * 2^k) round up in RNE */
        {&ff_f8e8m0fnu, 1.5, {0x80, 0x7F, 0x80, 0x7F, 0x80}},
        {&ff_f8e8m0fnu, 3.0, {0x81, 0x80, 0x81, 0x80, 0x81}},
        {&ff_f8e8m0fnu, 1.4, {0x7F, 0x7F, 0x80, 0x7F, 0x7F}},
        {&ff_f8e8m0fnu, 0.75, {0x7F, 0x7E, 0x7F, 0x7E, 0x7F}},
        {&ff_f8e8m0fnu, 0x1p-130, {0x00, 0x00, 0x00, 0x00, 0x00}},
        {&ff_f8e8m0fnu, 0.0, {0x00, 0x00, 0x00, 0x00, 0x00}},
        {&ff_f8e8m0fnu, -0.0, {0x00, 0x00, 0x00, 0x00, 0x00}},
        {&ff_f8e8m0fnu, -1.0, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF}},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        for (int m = 0; m < 5; m++) {
            char what[64];
            snprintf(what, sizeof what, "%a %s", t[i].x, mode_names[m]);
            CHECK_BITS(t[i].f, ff_from_double(t[i].f, t[i].x, all_modes[m]), t[i].want[m], what);
        }
}

static void test_ff_subnormals(void)
{
    static const struct {
        const FloatFormat *f;
        double x;
        uint64_t want[5]; /* RNE DOWN UP TZ AWAY */
    } t[] = {
        {&ff_float16, 0x1p-24, {0x0001, 0x0001, 0x0001, 0x0001, 0x0001}},
        {&ff_float16, 0x1p-25, {0x0000, 0x0000, 0x0001, 0x0000, 0x0001}},
        {&ff_float16, 0x1.000002p-25, {0x0001, 0x0000, 0x0001, 0x0000, 0x0001}},
        {&ff_float16, 0x1.fffffep-26, {0x0000, 0x0000, 0x0001, 0x0000, 0x0000}},
        {&ff_float16, 3 * 0x1p-25, {0x0002, 0x0001, 0x0002, 0x0001, 0x0002}},
        {&ff_float16, 5 * 0x1p-25, {0x0002, 0x0002, 0x0003, 0x0002, 0x0003}},
        {&ff_float16, -0x1p-25, {0x8000, 0x8001, 0x8000, 0x8000, 0x8001}},
        {&ff_float16, 0x1p-14 - 0x1p-25, {0x0400, 0x03FF, 0x0400, 0x03FF, 0x0400}}, /* into the normals */
        {&ff_float16, 1e-300, {0x0000, 0x0000, 0x0001, 0x0000, 0x0000}},
        {&ff_float16, -5e-324, {0x8000, 0x8001, 0x8000, 0x8000, 0x8000}},
        {&ff_float32, 0x1p-149, {1, 1, 1, 1, 1}},
        {&ff_float32, 0x1p-150, {0, 0, 1, 0, 1}},
        {&ff_float32, 3 * 0x1p-150, {2, 1, 2, 1, 2}},
        {&ff_float32, 0x1.fffffcp-127, {0x007FFFFF, 0x007FFFFF, 0x007FFFFF, 0x007FFFFF, 0x007FFFFF}},
        {&ff_float32, 0x1.fffffep-127, {0x00800000, 0x007FFFFF, 0x00800000, 0x007FFFFF, 0x00800000}},
        {&ff_bfloat16, 0x1p-133, {1, 1, 1, 1, 1}},
        {&ff_bfloat16, 0x1p-134, {0, 0, 1, 0, 1}},
        {&ff_float64, 0x1p-1074, {1, 1, 1, 1, 1}},
        {&ff_f8e4m3fn, 0x1p-9, {1, 1, 1, 1, 1}},
        {&ff_f8e4m3fn, 0x1p-10, {0, 0, 1, 0, 1}},
        {&ff_f8e4m3fn, 3 * 0x1p-10, {2, 1, 2, 1, 2}},
        {&ff_f8e5m2, 0x1p-17, {0, 0, 1, 0, 1}},
        {&ff_f8e4m3fnuz, 0x1p-11, {0, 0, 1, 0, 1}},
        {&ff_f8e4m3b11fnuz, 0x1p-14, {0, 0, 1, 0, 1}},
        {&ff_f8e4m3, 0x1p-10, {0, 0, 1, 0, 1}},
        {&ff_f6e2m3fn, 0x1p-3, {1, 1, 1, 1, 1}},
        {&ff_f6e3m2fn, 0x1p-4, {1, 1, 1, 1, 1}},
        {&ff_f4e2m1fn, 0x1p-1, {1, 1, 1, 1, 1}},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        for (int m = 0; m < 5; m++) {
            char what[64];
            snprintf(what, sizeof what, "%a %s", t[i].x, mode_names[m]);
            CHECK_BITS(t[i].f, ff_from_double(t[i].f, t[i].x, all_modes[m]), t[i].want[m], what);
        }
}

/* Overflow per format, as documented in floatfmt.c's table. */
static void test_ff_overflow(void)
{
    static const struct {
        const FloatFormat *f;
        double x;
        uint64_t want[5]; /* RNE DOWN UP TZ AWAY */
    } t[] = {
        {&ff_float16, 70000.0, {0x7C00, 0x7BFF, 0x7C00, 0x7BFF, 0x7C00}},
        {&ff_float16, -70000.0, {0xFC00, 0xFC00, 0xFBFF, 0xFBFF, 0xFC00}},
        {&ff_float16, 65519.0, {0x7BFF, 0x7BFF, 0x7C00, 0x7BFF, 0x7BFF}},
        {&ff_float16, 65520.0, {0x7C00, 0x7BFF, 0x7C00, 0x7BFF, 0x7C00}}, /* exact tie with 2^16 */
        {&ff_bfloat16, 1e39, {0x7F80, 0x7F7F, 0x7F80, 0x7F7F, 0x7F80}},
        {&ff_float32, 1e39, {0x7F800000, 0x7F7FFFFF, 0x7F800000, 0x7F7FFFFF, 0x7F800000}},
        {&ff_float32, -1e300, {0xFF800000, 0xFF800000, 0xFF7FFFFF, 0xFF7FFFFF, 0xFF800000}},
        {&ff_f8e5m2, 1e6, {0x7C, 0x7B, 0x7C, 0x7B, 0x7C}},
        {&ff_f8e5m2, 61440.0, {0x7C, 0x7B, 0x7C, 0x7B, 0x7C}},           /* tie 57344 | 65536 */
        {&ff_f8e4m3, 1000.0, {0x78, 0x77, 0x78, 0x77, 0x78}},
        /* E4M3FN: 480 would be S.1111.111, the NaN; 464 ties to 448 (even) */
        {&ff_f8e4m3fn, 464.0, {0x7E, 0x7E, 0x7F, 0x7E, 0x7F}},
        {&ff_f8e4m3fn, 465.0, {0x7F, 0x7E, 0x7F, 0x7E, 0x7F}},
        {&ff_f8e4m3fn, 1e6, {0x7F, 0x7E, 0x7F, 0x7E, 0x7F}},
        {&ff_f8e4m3fn, -1e6, {0xFF, 0xFF, 0xFE, 0xFE, 0xFF}},
        {&ff_f8e4m3fnuz, 1e6, {0x80, 0x7F, 0x80, 0x7F, 0x80}},
        {&ff_f8e4m3fnuz, -1e6, {0x80, 0x80, 0xFF, 0xFF, 0x80}},
        {&ff_f8e4m3fnuz, 248.0, {0x80, 0x7F, 0x80, 0x7F, 0x80}},         /* tie 240 (odd) | 256: NaN */
        {&ff_f8e4m3b11fnuz, 31.0, {0x80, 0x7F, 0x80, 0x7F, 0x80}},
        {&ff_f6e2m3fn, 100.0, {0x1F, 0x1F, 0x1F, 0x1F, 0x1F}},
        {&ff_f6e2m3fn, -100.0, {0x3F, 0x3F, 0x3F, 0x3F, 0x3F}},
        {&ff_f6e3m2fn, 1e30, {0x1F, 0x1F, 0x1F, 0x1F, 0x1F}},
        {&ff_f4e2m1fn, 7.0, {0x7, 0x7, 0x7, 0x7, 0x7}},
        {&ff_f4e2m1fn, -1e300, {0xF, 0xF, 0xF, 0xF, 0xF}},
        {&ff_f8e8m0fnu, 0x1p128, {0xFF, 0xFE, 0xFF, 0xFE, 0xFF}},
        {&ff_f8e8m0fnu, 0x1.8p127, {0xFF, 0xFE, 0xFF, 0xFE, 0xFF}},     /* tie 2^127 | 2^128 rounds up */
        {&ff_f8e8m0fnu, 0x1.7p127, {0xFE, 0xFE, 0xFF, 0xFE, 0xFE}},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        for (int m = 0; m < 5; m++) {
            char what[64];
            snprintf(what, sizeof what, "%a %s", t[i].x, mode_names[m]);
            CHECK_BITS(t[i].f, ff_from_double(t[i].f, t[i].x, all_modes[m]), t[i].want[m], what);
        }
}

static void test_ff_specials(void)
{
    for (int i = 0; i < N_ALL; i++) {
        const FloatFormat *f = all_formats[i];
        for (int m = 0; m < 5; m++) {
            CHECK_BITS(f, ff_from_double(f, NAN, all_modes[m]), canonical_nan(f), "NaN");
            CHECK_BITS(f, ff_from_double(f, -NAN, all_modes[m]), canonical_nan(f), "-NaN");
            uint64_t pz = ff_from_double(f, 0.0, all_modes[m]), nz = ff_from_double(f, -0.0, all_modes[m]);
            CHECK_BITS(f, pz, 0, "+0");
            CHECK_BITS(f, nz, f->has_neg_zero ? (uint64_t)1 << (f->width - 1) : 0, "-0");
        }
    }
    /* Infinities. */
    static const struct {
        const FloatFormat *f;
        uint64_t pos, neg;
    } inf[] = {
        {&ff_float16, 0x7C00, 0xFC00},       {&ff_bfloat16, 0x7F80, 0xFF80},
        {&ff_float32, 0x7F800000, 0xFF800000}, {&ff_float64, 0x7FF0000000000000ull, 0xFFF0000000000000ull},
        {&ff_f8e5m2, 0x7C, 0xFC},            {&ff_f8e4m3, 0x78, 0xF8},
        {&ff_f8e4m3fn, 0x7F, 0xFF},          {&ff_f8e4m3fnuz, 0x80, 0x80},
        {&ff_f8e4m3b11fnuz, 0x80, 0x80},     {&ff_f6e2m3fn, 0x1F, 0x3F},
        {&ff_f6e3m2fn, 0x1F, 0x3F},          {&ff_f4e2m1fn, 0x7, 0xF},
        {&ff_f8e8m0fnu, 0xFF, 0xFF},
    };
    for (size_t i = 0; i < sizeof inf / sizeof inf[0]; i++)
        for (int m = 0; m < 5; m++) {
            /* NanOnly formats give NaN for an infinity in every mode, even
             * TZ; IEEE formats keep it; FiniteOnly saturates. */
            CHECK_BITS(inf[i].f, ff_from_double(inf[i].f, INFINITY, all_modes[m]), inf[i].pos, "+inf");
            CHECK_BITS(inf[i].f, ff_from_double(inf[i].f, -INFINITY, all_modes[m]), inf[i].neg, "-inf");
        }
    CHECK(ff_is_inf(&ff_float16, ff_from_double(&ff_float16, 70000.0, FF_RNE)), "Float16(70000.0) is inf");
}

/* ---- integer -> float with one rounding ---- */

static BigInt bits_value_big(const FloatFormat *f, uint64_t bits)
{
    return big_from_double_trunc(ff_to_double(f, bits));
}

/* Checks r = ff_from_big(f, v, rm) for v >= 2^p (so the neighbours are
 * integers) against the definition: r brackets v with its neighbour, and the
 * mode picks the right side. */
static bool big_rounding_ok(const FloatFormat *f, BigInt v, FfRound rm, uint64_t r)
{
    bool neg = big_sign(v) < 0;
    BigInt av = neg ? big_neg(v) : v;
    uint64_t mag = r & (((uint64_t)1 << (f->width - 1)) - 1);
    if (f->width == 64)
        mag = r & 0x7FFFFFFFFFFFFFFFull;
    if (((r >> (f->width - 1)) & 1) != neg)
        return false;
    if (ff_is_inf(f, r) || ff_is_nan(f, r))
        return false; /* callers keep v in range */
    BigInt rv = bits_value_big(f, mag);
    int c = big_cmp(rv, av);
    if (c == 0)
        return true;
    /* the other neighbour around av */
    uint64_t other = c < 0 ? mag + 1 : mag - 1;
    BigInt ov = bits_value_big(f, other);
    BigInt lo = c < 0 ? rv : ov, hi = c < 0 ? ov : rv;
    if (!(big_cmp(lo, av) < 0 && big_cmp(av, hi) < 0))
        return false;
    bool chose_hi = c > 0; /* chose the larger magnitude */
    BigInt twice = big_add(av, av), sum = big_add(lo, hi);
    int side = big_cmp(twice, sum); /* <0 nearer lo, >0 nearer hi, 0 tie */
    uint64_t hi_bits = c < 0 ? other : mag;
    switch (rm) {
    case FF_RNE: return side ? chose_hi == (side > 0) : chose_hi == ((hi_bits & 1) == 0);
    case FF_NEAREST_AWAY: return side ? chose_hi == (side > 0) : chose_hi;
    case FF_TOWARD_ZERO: return !chose_hi;
    case FF_UP: return chose_hi == !neg;
    default: return chose_hi == neg;
    }
}

static void test_ff_from_big(void)
{
    /* The brief's double-rounding example: 2^63 - 2^38 - 1 lies just below
     * the midpoint between two floats; via binary64 it would become the
     * midpoint and then round to even (2^63). */
    BigInt v = parse_ok("0x7FFFFFBFFFFFFFFF");
    CHECK_BITS(&ff_float32, ff_from_big(&ff_float32, v, FF_RNE), 0x5EFFFFFF, "0x7FFFFFBFFFFFFFFF");
    CHECK(ff_from_double(&ff_float32, (double)0x7FFFFFBFFFFFFFFFll, FF_RNE) == 0x5F000000,
          "via double it does double-round (test premise)");
    CHECK_BITS(&ff_float32, ff_from_big(&ff_float32, big_neg(v), FF_RNE), 0xDEFFFFFF, "-0x7FFFFFBFFFFFFFFF");
    CHECK_BITS(&ff_float32, ff_from_big(&ff_float32, big_add(v, big_from_u64(1)), FF_RNE), 0x5F000000,
               "exact midpoint ties to even");
    CHECK_BITS(&ff_float16, ff_from_big(&ff_float16, parse_ok("2049"), FF_RNE), 0x6800, "2049 -> 2048");
    CHECK_BITS(&ff_float16, ff_from_big(&ff_float16, parse_ok("2051"), FF_RNE), 0x6802, "2051 -> 2052");
    CHECK_BITS(&ff_float16, ff_from_big(&ff_float16, parse_ok("65520"), FF_RNE), 0x7C00, "65520 -> inf");
    CHECK_BITS(&ff_float16, ff_from_big(&ff_float16, parse_ok("65520"), FF_TOWARD_ZERO), 0x7BFF, "65520 TZ");
    CHECK_BITS(&ff_float32, ff_from_big(&ff_float32, pow2(128), FF_RNE), 0x7F800000, "2^128 -> inf");
    CHECK_BITS(&ff_float32, ff_from_big(&ff_float32, pow2(127), FF_RNE), 0x7F000000, "2^127");
    CHECK_BITS(&ff_float64, ff_from_big(&ff_float64, big_neg(pow2(575)), FF_RNE), 0xE3E0000000000000ull, "-2^575");
    CHECK_BITS(&ff_float64, ff_from_big(&ff_float64, big_add(pow2(511), big_from_u64(1)), FF_UP),
               0x5FE0000000000001ull, "2^511+1 UP");
    CHECK_BITS(&ff_float64, ff_from_big(&ff_float64, parse_ok("9007199254740993"), FF_RNE), 0x4340000000000000ull,
               "2^53+1");
    CHECK_BITS(&ff_float64, ff_from_big(&ff_float64, parse_ok("9007199254740995"), FF_RNE), 0x4340000000000002ull,
               "2^53+3");
    CHECK_BITS(&ff_f8e4m3fn, ff_from_big(&ff_f8e4m3fn, parse_ok("464"), FF_RNE), 0x7E, "464");
    CHECK_BITS(&ff_f8e4m3fn, ff_from_big(&ff_f8e4m3fn, parse_ok("465"), FF_RNE), 0x7F, "465");
    CHECK_BITS(&ff_f4e2m1fn, ff_from_big(&ff_f4e2m1fn, parse_ok("5"), FF_RNE), 0x6, "5 ties to 4 (even)");
    CHECK_BITS(&ff_f4e2m1fn, ff_from_big(&ff_f4e2m1fn, big_from_i64(-1000), FF_UP), 0xF, "FP4 saturates");
    CHECK_BITS(&ff_f8e8m0fnu, ff_from_big(&ff_f8e8m0fnu, big_from_i64(3), FF_RNE), 0x81, "E8M0 3 -> 4");
    CHECK_BITS(&ff_f8e8m0fnu, ff_from_big(&ff_f8e8m0fnu, big_from_i64(-3), FF_RNE), 0xFF, "E8M0 -3 -> NaN");
    CHECK_BITS(&ff_f8e8m0fnu, ff_from_big(&ff_f8e8m0fnu, big_from_i64(0), FF_RNE), 0x00, "E8M0 0");
    CHECK_BITS(&ff_f8e4m3fnuz, ff_from_big(&ff_f8e4m3fnuz, big_from_i64(0), FF_RNE), 0x00, "FNUZ 0");
    for (int m = 0; m < 5; m++)
        CHECK_BITS(&ff_float32, ff_from_big(&ff_float32, big_from_i64(0), all_modes[m]), 0, "0 is +0");

    /* Every int64 against the x87 80-bit long double: (long double)i64 is
     * exact, and the cast to float is then a single rounding in the current
     * hardware mode, for the four modes fenv provides. */
#if defined(__x86_64__) || defined(__i386__)
    static const int fe[4] = {FE_TONEAREST, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO};
    Loop l = {0, 0};
    for (int i = 0; i < 40000; i++) {
        int64_t x = (int64_t)rnd64();
        if (i % 4 == 1)
            x >>= rnd64() % 64;                      /* all magnitudes */
        if (i % 4 == 2)
            x = (int64_t)((rnd64() | 0x7FFFFFull) << (rnd64() % 40)) >> 1; /* near ties */
        if (i % 4 == 3)
            x = (int64_t)(0x7FFFFFBFFFFFFFFFull - (rnd64() % 4096)) * ((rnd64() & 1) ? 1 : -1);
        for (int m = 0; m < 4; m++) {
            fesetround(fe[m]);
            volatile long double ld = (long double)x;
            volatile float fl = (float)ld;
            volatile double db = (double)ld;
            fesetround(FE_TONEAREST);
            float flv = fl;
            double dbv = db;
            uint32_t fb;
            uint64_t dbb;
            memcpy(&fb, &flv, sizeof fb);
            memcpy(&dbb, &dbv, sizeof dbb);
            uint64_t got = ff_from_big(&ff_float32, big_from_i64(x), all_modes[m]);
            loop_check(&l, got == fb, "int64 %lld %s -> f32 0x%llx want 0x%x", (long long)x, mode_names[m],
                       (unsigned long long)got, fb);
            got = ff_from_big(&ff_float64, big_from_i64(x), all_modes[m]);
            loop_check(&l, got == dbb, "int64 %lld %s -> f64 0x%llx want 0x%llx", (long long)x, mode_names[m],
                       (unsigned long long)got, (unsigned long long)dbb);
        }
    }
    LOOP_DONE(l, "int64 vs x87 long double");
#endif

    /* Wide values against the definition of each mode. */
    Loop w = {0, 0};
    for (int i = 0; i < 4000; i++) {
        BigInt x;
        for (int k = 0; k < BIG_LIMBS; k++)
            x.w[k] = rnd64();
        const FloatFormat *f = (i & 1) ? &ff_float64 : &ff_float32;
        int maxbits = f == &ff_float32 ? 127 : 575;
        int nb = (f == &ff_float32 ? 25 : 54) + (int)(rnd64() % (uint64_t)(maxbits - (f == &ff_float32 ? 25 : 54)));
        x = big_wrap(x, nb, false);
        x = big_or(x, pow2((unsigned)nb - 1)); /* exactly nb bits */
        if (i % 3 == 0) {
            /* make it a tie or a near tie at float precision */
            int p = f->man_bits + 1;
            x = big_and(x, big_not(big_sub(pow2((unsigned)(nb - p)), big_from_u64(1))));
            x = big_or(x, pow2((unsigned)(nb - p - 1)));
            x = big_add(x, big_from_i64((int64_t)(rnd64() % 3) - 1));
        }
        if (rnd64() & 1)
            x = big_neg(x);
        for (int m = 0; m < 5; m++) {
            uint64_t r = ff_from_big(f, x, all_modes[m]);
            char buf[BIG_DEC_MAX];
            loop_check(&w, big_rounding_ok(f, x, all_modes[m], r), "%s %s %s -> 0x%llx", f->name,
                       big_to_dec(x, buf), mode_names[m], (unsigned long long)r);
        }
    }
    LOOP_DONE(w, "wide integers vs the definition");
}

/* ------------------------------------------------------------------------ */
/* floatfmt: repr                                                           */

static uint64_t f32_bits(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

static uint64_t f64_bits(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

static void test_ff_repr_examples(void)
{
    volatile float a = 0.1f, b = 0.2f, one = 1.0f, three = 3.0f;
    volatile double c = 0.1, d = 0.2;
    CHECK_REPR(&ff_float32, f32_bits(0.1f), "0.1");
    CHECK_REPR(&ff_float32, ff_from_double(&ff_float32, 0.1, FF_RNE), "0.1");
    CHECK_REPR(&ff_float32, f32_bits(a + b), "0.3");
    CHECK_REPR(&ff_float64, f64_bits(c + d), "0.30000000000000004");
    CHECK_REPR(&ff_float32, f32_bits(one / three), "0.33333334");
    CHECK_REPR(&ff_float64, f64_bits(1.0 / 3), "0.3333333333333333");
    CHECK_REPR(&ff_float64, f64_bits(1e20), "1e+20");
    CHECK_REPR(&ff_float64, f64_bits(1.5e-07), "1.5e-07");
    CHECK_REPR(&ff_float64, f64_bits(1e16), "1e+16");
    CHECK_REPR(&ff_float64, f64_bits(1e15), "1000000000000000.0");
    CHECK_REPR(&ff_float64, f64_bits(1234567890123456.0), "1234567890123456.0");
    CHECK_REPR(&ff_float64, f64_bits(12345678901234567.0), "1.2345678901234568e+16");
    CHECK_REPR(&ff_float64, f64_bits(0.0001), "0.0001");
    CHECK_REPR(&ff_float64, f64_bits(0.00001), "1e-05");
    CHECK_REPR(&ff_float64, f64_bits(0.000123), "0.000123");
    CHECK_REPR(&ff_float64, f64_bits(2.0), "2.0");
    CHECK_REPR(&ff_float64, f64_bits(-2.5), "-2.5");
    CHECK_REPR(&ff_float64, f64_bits(100.0), "100.0");
    CHECK_REPR(&ff_float64, f64_bits(123.456), "123.456");
    CHECK_REPR(&ff_float64, f64_bits(1e100), "1e+100");
    CHECK_REPR(&ff_float64, f64_bits(1.7976931348623157e308), "1.7976931348623157e+308");
    CHECK_REPR(&ff_float64, 1, "5e-324");
    CHECK_REPR(&ff_float64, f64_bits(9007199254740993.0), "9007199254740992.0");
    CHECK_REPR(&ff_float64, f64_bits(0.1), "0.1");
    CHECK_REPR(&ff_float64, f64_bits(-0.0), "-0.0");
    CHECK_REPR(&ff_float64, f64_bits(0.0), "0.0");
    CHECK_REPR(&ff_float64, 0x7FF0000000000000ull, "inf");
    CHECK_REPR(&ff_float64, 0xFFF0000000000000ull, "-inf");
    CHECK_REPR(&ff_float64, 0x7FF8000000000000ull, "nan");
    CHECK_REPR(&ff_float64, 0xFFF8000000000001ull, "nan");
    CHECK_REPR(&ff_float32, f32_bits(1e20f), "1e+20");
    CHECK_REPR(&ff_float32, f32_bits(16777216.0f), "16777216.0");
    CHECK_REPR(&ff_float32, 0x7F7FFFFF, "3.4028235e+38");
    CHECK_REPR(&ff_float32, 1, "1e-45");
    CHECK_REPR(&ff_float32, 0x7F800000, "inf");
    CHECK_REPR(&ff_float32, 0x80000000, "-0.0");
    CHECK_REPR(&ff_float16, ff_from_double(&ff_float16, 70000.0, FF_RNE), "inf");
    CHECK_REPR(&ff_float16, ff_from_double(&ff_float16, -70000.0, FF_RNE), "-inf");
    CHECK_REPR(&ff_float16, 0x7BFF, "65500.0"); /* 65500 reads back as 65504 */
    CHECK_REPR(&ff_float16, 0x7BFE, "65470.0");
    CHECK_REPR(&ff_float16, ff_from_double(&ff_float16, 0.1, FF_RNE), "0.1");
    CHECK_REPR(&ff_float16, 0x3555, "0.3333");
    CHECK_REPR(&ff_float16, 0x0001, "6e-08");
    CHECK_REPR(&ff_float16, 0x7E00, "nan");
    CHECK_REPR(&ff_bfloat16, ff_from_double(&ff_bfloat16, 0.1, FF_RNE), "0.1");
    CHECK_REPR(&ff_bfloat16, 0x3F80, "1.0");
    CHECK_REPR(&ff_bfloat16, 0x4049, "3.14");
    CHECK_REPR(&ff_f8e4m3fn, 0x7E, "450.0"); /* 450 < 464 reads back as 448 */
    CHECK_REPR(&ff_f8e4m3fn, 0x7D, "420.0"); /* 416 */
    CHECK_REPR(&ff_f8e4m3fn, 0x7F, "nan");
    CHECK_REPR(&ff_f8e4m3fnuz, 0x80, "nan");
    CHECK_REPR(&ff_f8e4m3fnuz, 0x7F, "240.0");
    CHECK_REPR(&ff_f8e5m2, 0x7C, "inf");
    CHECK_REPR(&ff_f4e2m1fn, 0x1, "0.5");
    CHECK_REPR(&ff_f4e2m1fn, 0xF, "-6.0");
    CHECK_REPR(&ff_f4e2m1fn, 0x8, "-0.0");
    CHECK_REPR(&ff_f6e2m3fn, 0x01, "0.1");   /* 0.125: "0.1" already rounds back to it */
    CHECK_REPR(&ff_f6e3m2fn, 0x1F, "30.0");  /* 28: "3e+01" reads as 30 -> 28 (nearest) */
    CHECK_REPR(&ff_f8e8m0fnu, 0x7F, "1.0");
    CHECK_REPR(&ff_f8e8m0fnu, 0xFF, "nan");
    CHECK_REPR(&ff_f8e8m0fnu, 0x80, "2.0");
    CHECK_REPR(&ff_f8e8m0fnu, 0x86, "100.0"); /* 128: 1e+02 rounds to 2^7 (ties up) */
    /* Powers of two, where the rounding interval is narrower below: the
     * nearest decimal of the shortest length falls outside, its upper
     * neighbour does not (f64 values checked against Python's repr). */
    CHECK_REPR(&ff_float64, 0x0060000000000000ull, "7.120236347223045e-307");
    CHECK_REPR(&ff_float64, 0x7CF0000000000000ull, "6.386688990511104e+293");
    CHECK_REPR(&ff_float64, 0x0100000000000000ull, "7.291122019556398e-304");
    CHECK_REPR(&ff_float32, 0x0F800000, "1.2621775e-29");
    CHECK_REPR(&ff_float32, 0x6B000000, "1.5474251e+26");
    CHECK_REPR(&ff_float16, 0x2400, "0.01563"); /* 2^-6 = 0.015625: 0.01562 reads back lower */
    CHECK_REPR(&ff_bfloat16, 0x0400, "1.51e-36");
}

/* Number of significant digits in a repr string. */
static int repr_digits(const char *s)
{
    char d[FF_REPR_MAX];
    int n = 0;
    for (; *s && *s != 'e'; s++)
        if (*s >= '0' && *s <= '9')
            d[n++] = *s;
    int start = 0;
    while (start < n && d[start] == '0')
        start++;
    while (n > start && d[n - 1] == '0')
        n--;
    return n - start;
}

/* Fewest %.*g digits that round-trip the encoding: an upper bound on the
 * shortest length (printf only offers the nearest decimal of each length). */
static int printf_shortest(const FloatFormat *f, uint64_t bits, double v)
{
    for (int n = 1; n <= 17; n++) {
        char buf[64];
        snprintf(buf, sizeof buf, "%.*g", n, v);
        if (ff_from_double(f, strtod(buf, NULL), FF_RNE) == bits)
            return n;
    }
    return 99;
}

/* x rounded to n significant decimal digits in the given fenv direction
 * (glibc's printf honours the rounding mode). */
static double dec_round(char *out, size_t size, double x, int n, int mode)
{
    fesetround(mode);
    snprintf(out, size, "%.*e", n - 1, x);
    fesetround(FE_TONEAREST);
    return strtod(out, NULL);
}

/* Independent shortest-and-nearest check for a positive finite encoding
 * whose neighbours' midpoints are exact doubles (formats up to 32 bits):
 * an n-digit decimal reads back as `bits` iff it lies in the rounding
 * interval around v, and the smallest n-digit decimal above the lower
 * midpoint / the largest below the upper one (found with directed printf)
 * are in that interval whenever any n-digit decimal is. */
static void check_shortest_nearest(const FloatFormat *f, uint64_t bits, const char *repr, Loop *l)
{
    double v = ff_to_double(f, bits);
    double prev = bits > 0 ? ff_to_double(f, bits - 1) : 0;
    double next = ff_to_double(f, bits + 1);
    if (bits + 1 >= ((uint64_t)1 << (f->width - f->has_sign)) || isnan(next) || isinf(next) ||
        ff_is_nan(f, bits + 1))
        next = f->nan == FF_NAN_NONE ? 4 * v : f == &ff_f8e8m0fnu ? 2 * v : v + (v - prev);
    double lo = prev + (v - prev) / 2, hi = v + (next - v) / 2;
    for (int n = 1; n <= 17; n++) {
        char c[5][64];
        double cv[5];
        cv[0] = dec_round(c[0], sizeof c[0], lo, n, FE_UPWARD);
        cv[1] = dec_round(c[1], sizeof c[1], nextafter(cv[0], INFINITY), n, FE_UPWARD);
        cv[2] = dec_round(c[2], sizeof c[2], hi, n, FE_DOWNWARD);
        cv[3] = dec_round(c[3], sizeof c[3], nextafter(cv[2], -INFINITY), n, FE_DOWNWARD);
        cv[4] = dec_round(c[4], sizeof c[4], v, n, FE_TONEAREST);
        long double best = -1;
        for (int k = 0; k < 5; k++) {
            if (ff_from_double(f, cv[k], FF_RNE) != bits)
                continue;
            long double dist = fabsl(strtold(c[k], NULL) - (long double)v);
            if (best < 0 || dist < best)
                best = dist;
        }
        if (best < 0)
            continue;
        /* exact ties (0.125 between 0.12 and 0.13) may go either way; the
         * slack only absorbs strtold's own rounding of the decimals */
        long double mine = fabsl(strtold(repr, NULL) - (long double)v);
        loop_check(l, repr_digits(repr) == n && mine <= best + (long double)v * 1e-18L,
                   "%s 0x%llx: repr \"%s\" but a %d-digit decimal at distance %Lg round-trips", f->name,
                   (unsigned long long)bits, repr, n, best);
        return;
    }
    loop_check(l, false, "%s 0x%llx: no decimal found", f->name, (unsigned long long)bits);
}

static void check_repr_roundtrip(const FloatFormat *f, uint64_t bits, Loop *l)
{
    char buf[FF_REPR_MAX];
    ff_repr(f, bits, buf);
    if (ff_is_nan(f, bits)) {
        loop_check(l, strcmp(buf, "nan") == 0, "%s 0x%llx -> %s", f->name, (unsigned long long)bits, buf);
        return;
    }
    double v = ff_to_double(f, bits);
    uint64_t back = ff_from_double(f, strtod(buf, NULL), FF_RNE);
    loop_check(l, back == bits, "%s 0x%llx -> \"%s\" reads back as 0x%llx", f->name, (unsigned long long)bits,
               buf, (unsigned long long)back);
    if (isinf(v) || v == 0)
        return;
    int nd = repr_digits(buf), ps = printf_shortest(f, bits, v);
    loop_check(l, nd <= ps, "%s 0x%llx -> \"%s\": %d digits, %%.%dg round-trips", f->name,
               (unsigned long long)bits, buf, nd, ps);
    if (f->width <= 32) {
        uint64_t sign = f->has_sign ? (uint64_t)1 << (f->width - 1) : 0;
        if (bits & sign) {
            /* negative values print as '-' and the positive text */
            char pos[FF_REPR_MAX];
            ff_repr(f, bits & ~sign, pos);
            loop_check(l, buf[0] == '-' && strcmp(buf + 1, pos) == 0, "%s 0x%llx: \"%s\" vs \"%s\"", f->name,
                       (unsigned long long)bits, buf, pos);
        } else {
            check_shortest_nearest(f, bits, buf, l);
        }
    }
    /* layout: scientific exactly when the exponent is < -4 or >= 16 */
    int e10 = (int)floor(log10(fabs(strtod(buf, NULL))));
    bool sci = strchr(buf, 'e') != NULL;
    loop_check(l, sci == (e10 < -4 || e10 >= 16) && (sci || strchr(buf, '.')), "%s layout \"%s\"", f->name, buf);
}

static void test_ff_repr_f32_random(void)
{
    Loop l = {0, 0};
    for (int i = 0; i < 100000; i++) {
        uint64_t b = rnd64() & 0xFFFFFFFFu;
        check_repr_roundtrip(&ff_float32, b, &l);
        /* every repr is at most as long as the always-sufficient %.9g */
        if (!ff_is_nan(&ff_float32, b)) {
            char buf[FF_REPR_MAX], g9[64];
            ff_repr(&ff_float32, b, buf);
            double v = ff_to_double(&ff_float32, b);
            snprintf(g9, sizeof g9, "%.9g", v);
            loop_check(&l, ff_from_double(&ff_float32, strtod(g9, NULL), FF_RNE) == b, "%%.9g of 0x%llx",
                       (unsigned long long)b);
            loop_check(&l, repr_digits(buf) <= 9, "f32 0x%llx -> %s longer than 9 digits", (unsigned long long)b,
                       buf);
        }
    }
    LOOP_DONE(l, "Float32 random repr");
}

static void test_ff_repr_f64_random(void)
{
    Loop l = {0, 0};
    for (int i = 0; i < 30000; i++)
        check_repr_roundtrip(&ff_float64, rnd64(), &l);
    LOOP_DONE(l, "Float64 random repr");
}

static void test_ff_repr_exhaustive(void)
{
    const FloatFormat *fs[N_NARROW + 2];
    for (int i = 0; i < N_NARROW; i++)
        fs[i] = narrow_formats[i];
    fs[N_NARROW] = &ff_float16;
    fs[N_NARROW + 1] = &ff_bfloat16;
    for (int i = 0; i < N_NARROW + 2; i++) {
        Loop l = {0, 0};
        for (uint64_t b = 0; b < ((uint64_t)1 << fs[i]->width); b++)
            check_repr_roundtrip(fs[i], b, &l);
        LOOP_DONE(l, fs[i]->name);
    }
}

/* ------------------------------------------------------------------------ */

static const FxtTest bigint_tests[] = {
    {"construct and convert", test_big_construct},
    {"parse every base", test_big_parse_bases},
    {"parse errors", test_big_parse_errors},
    {"parse limits 2^511 / 2^512", test_big_parse_limits},
    {"in_range", test_big_in_range},
    {"add sub mul", test_big_arith},
    {"square decimal", test_big_square_decimal},
    {"division sign table", test_big_division_signs},
    {"division large and random", test_big_division_large},
    {"compare and bitwise", test_big_compare_bitwise},
    {"shifts", test_big_shifts},
    {"wrap and fits", test_big_wrap},
    {"to_dec and from_double_trunc", test_big_to_dec_and_double},
    {NULL, NULL},
};

static const FxtTest floatfmt_tests[] = {
    {"format table", test_ff_table},
    {"to_double", test_ff_to_double},
    {"is_nan / is_inf", test_ff_classify},
    {"narrow formats round-trip every encoding", test_ff_roundtrip_narrow},
    {"Float16 / BFloat16 round-trip every encoding", test_ff_roundtrip_16},
    {"Float32 / Float64 random", test_ff_roundtrip_32_64},
    {"ties and all modes between every neighbour pair", test_ff_ties_and_modes_exhaustive},
    {"five modes on examples", test_ff_modes_examples},
    {"subnormals", test_ff_subnormals},
    {"overflow per format", test_ff_overflow},
    {"NaN, zeros, infinities", test_ff_specials},
    {"integer to float, one rounding", test_ff_from_big},
    {"repr examples", test_ff_repr_examples},
    {"repr Float32 random", test_ff_repr_f32_random},
    {"repr Float64 random", test_ff_repr_f64_random},
    {"repr every 16-bit and narrow encoding", test_ff_repr_exhaustive},
    {NULL, NULL},
};

/* ---- diagnostics ---- */

/* Exact repeats are printed once when asked; a different message at the
 * same place is never taken for a repeat (the set keeps whole texts). */
static void test_diag_dedupe(void)
{
    SrcFile *f = diag_file_from_string("d.fx", "let x = 1\n");
    Loc at = { f, 1, 5, 1, 5 };
    diag_reset();
    diag_set_dedupe(true);
    fxt_capture_begin();
    for (int i = 0; i < 3; i++)
        diag_error(at, "first message");
    for (int i = 0; i < 2000; i++)   /* many distinct messages: every one printed */
        diag_error(at, "message %d", i);
    diag_error(at, "first message");
    char *out = fxt_capture_end();
    int firsts = 0, distinct = 0;
    for (const char *p = out; (p = strstr(p, "first message")); p++)
        firsts++;
    for (const char *p = out; (p = strstr(p, "error: message ")); p++)
        distinct++;
    CU_ASSERT_EQUAL(firsts, 1);
    CU_ASSERT_EQUAL(distinct, 2000);
    CU_ASSERT_EQUAL(diag_error_count(), 2004);
    free(out);
    diag_set_dedupe(false);
    diag_reset();
    diag_free_file(f);
}

static const FxtTest diag_tests[] = {
    {"repeats once, distinct messages always", test_diag_dedupe},
    {NULL, NULL},
};

int main(int argc, char **argv)
{
    static const FxtSuite suites[] = {
        { "bigint", bigint_tests, NULL, NULL },
        { "floatfmt", floatfmt_tests, NULL, NULL },
        { "diag", diag_tests, NULL, NULL },
        { NULL, NULL, NULL, NULL },
    };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
