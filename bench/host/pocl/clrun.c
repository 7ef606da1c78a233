/* clrun.c - runs one OpenCL kernel the way bench/host/pocl/run.sh runs an
 * fx kernel with fxrun, and times it.
 *
 *   clrun FILE.cl KERNEL --grid X[,Y[,Z]] --block X[,Y[,Z]] [--runs N]
 *         [--save I=FILE]... ARG...
 *
 * --grid counts work-groups and --block work-items per work-group, as
 * fxrun's options do (the NDRange's global size is their product). The
 * ARGs are the kernel's arguments in order:
 *   @FILE     a buffer holding the bytes of FILE (raw, little-endian)
 *   int:V     an int; uint:V an unsigned int; float:V a float
 * --save I=FILE writes the buffer of argument I (from 0) to FILE after the
 * last run.
 *
 * The program is built from source with no options (the kernel's work-group
 * size is fixed at the first enqueue, which POCL compiles for). One untimed
 * run warms up, then RUNS (default 5) timed ones: before each run every
 * buffer is written again from the file's bytes (untimed), so each run
 * starts from the same inputs and leaves the same outputs; the time is
 * clEnqueueNDRangeKernel + clFinish on a monotonic clock. Prints the median
 * milliseconds on standard output (the lower middle one for an even count),
 * the platform, the device, each run's wall time and the median process CPU
 * time on standard error. Exit status 0, 1 for an OpenCL or file error, 2
 * for a usage error. */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_ARGS = 32, MAX_SAVES = 8, MAX_RUNS = 1000 };

typedef struct {
    enum { ARG_BUFFER, ARG_INT, ARG_UINT, ARG_FLOAT } kind;
    const char *file;       /* ARG_BUFFER */
    void *bytes;            /* the file's contents */
    size_t size;
    cl_mem mem;
    cl_int i;
    cl_uint u;
    cl_float f;
} Arg;

static const char *prog = "clrun";

static void usage(const char *why)
{
    fprintf(stderr, "%s: %s\n", prog, why);
    fprintf(stderr, "usage: %s FILE.cl KERNEL --grid X[,Y[,Z]] --block X[,Y[,Z]] [--runs N]\n"
                    "             [--save I=FILE]... ARG...   (ARG: @FILE, int:V, uint:V, float:V)\n", prog);
    exit(2);
}

static void cl_check(cl_int err, const char *what)
{
    if (err != CL_SUCCESS) {
        fprintf(stderr, "%s: %s failed: OpenCL error %d\n", prog, what, (int)err);
        exit(1);
    }
}

/* The whole of a file, malloc'd; its size in *size. */
static void *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open '%s': %s\n", prog, path, strerror(errno));
        exit(1);
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fprintf(stderr, "%s: out of memory reading '%s'\n", prog, path);
            exit(1);
        }
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap)
            break;
        cap *= 2;
        buf = realloc(buf, cap);
    }
    if (ferror(f)) {
        fprintf(stderr, "%s: cannot read '%s'\n", prog, path);
        exit(1);
    }
    fclose(f);
    *size = len;
    return buf;
}

static void write_file(const char *path, const void *bytes, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(bytes, 1, size, f) != size || fclose(f) != 0) {
        fprintf(stderr, "%s: cannot write '%s'\n", prog, path);
        exit(1);
    }
}

/* "X[,Y[,Z]]" into dims[0..2] (missing ones are 1); the count of numbers. */
static cl_uint parse_dims(const char *s, size_t dims[3])
{
    cl_uint n = 0;
    dims[0] = dims[1] = dims[2] = 1;
    for (;;) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(s, &end, 10);
        if (end == s || errno || v == 0 || n == 3)
            usage("--grid and --block want 1 to 3 positive numbers separated by commas");
        dims[n++] = (size_t)v;
        if (*end == '\0')
            return n;
        if (*end != ',')
            usage("--grid and --block want 1 to 3 positive numbers separated by commas");
        s = end + 1;
    }
}

static void parse_arg(const char *s, Arg *a)
{
    char *end;
    errno = 0;
    if (s[0] == '@') {
        a->kind = ARG_BUFFER;
        a->file = s + 1;
        return;
    }
    if (!strncmp(s, "int:", 4)) {
        a->kind = ARG_INT;
        long v = strtol(s + 4, &end, 0);
        a->i = (cl_int)v;
        if (v < -2147483647L - 1 || v > 2147483647L)
            errno = ERANGE;
    } else if (!strncmp(s, "uint:", 5)) {
        a->kind = ARG_UINT;
        unsigned long v = strtoul(s + 5, &end, 0);
        a->u = (cl_uint)v;
        if (v > 4294967295UL)
            errno = ERANGE;
    } else if (!strncmp(s, "float:", 6)) {
        a->kind = ARG_FLOAT;
        a->f = strtof(s + 6, &end);
    } else {
        usage("an argument is @FILE, int:V, uint:V or float:V");
        return;
    }
    if (errno || *end != '\0' || end == strchr(s, ':') + 1) {
        fprintf(stderr, "%s: bad value in '%s'\n", prog, s);
        exit(2);
    }
}

static double now_ms(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The lower middle of n values (sorts them). */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    return v[(n - 1) / 2];
}

/* The POCL platform if there is one, else the first. */
static cl_platform_id pick_platform(void)
{
    cl_platform_id ids[16];
    cl_uint n = 0;
    cl_check(clGetPlatformIDs(16, ids, &n), "clGetPlatformIDs");
    if (n == 0) {
        fprintf(stderr, "%s: no OpenCL platform (is pocl-opencl-icd installed?)\n", prog);
        exit(1);
    }
    if (n > 16)
        n = 16;
    for (cl_uint k = 0; k < n; k++) {
        char name[256] = "";
        clGetPlatformInfo(ids[k], CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
        if (strstr(name, "Portable Computing Language"))
            return ids[k];
    }
    return ids[0];
}

int main(int argc, char **argv)
{
    const char *cl_file = NULL, *kernel_name = NULL;
    size_t grid[3], block[3];
    cl_uint grid_n = 0, block_n = 0;
    int runs = 5, nargs = 0, nsaves = 0;
    Arg args[MAX_ARGS];
    int save_arg[MAX_SAVES];
    const char *save_file[MAX_SAVES];

    memset(args, 0, sizeof args);
    for (int k = 1; k < argc; k++) {
        const char *s = argv[k];
        if (!strcmp(s, "--grid") || !strcmp(s, "--block") || !strcmp(s, "--runs") || !strcmp(s, "--save")) {
            if (k + 1 == argc)
                usage("an option wants a value");
            const char *v = argv[++k];
            if (!strcmp(s, "--grid")) {
                grid_n = parse_dims(v, grid);
            } else if (!strcmp(s, "--block")) {
                block_n = parse_dims(v, block);
            } else if (!strcmp(s, "--runs")) {
                char *end;
                long r = strtol(v, &end, 10);
                if (*end || r < 1 || r > MAX_RUNS)
                    usage("--runs wants a number from 1 to 1000");
                runs = (int)r;
            } else {
                char *end;
                long i = strtol(v, &end, 10);
                if (end == v || *end != '=' || i < 0 || i >= MAX_ARGS || nsaves == MAX_SAVES)
                    usage("--save wants I=FILE, I an argument's position from 0");
                save_arg[nsaves] = (int)i;
                save_file[nsaves++] = end + 1;
            }
        } else if (s[0] == '-' && s[1] == '-') {
            usage("unknown option");
        } else if (!cl_file) {
            cl_file = s;
        } else if (!kernel_name) {
            kernel_name = s;
        } else {
            if (nargs == MAX_ARGS)
                usage("too many arguments");
            parse_arg(s, &args[nargs++]);
        }
    }
    if (!cl_file || !kernel_name)
        usage("a .cl file and a kernel name are required");
    if (!grid_n || !block_n)
        usage("--grid and --block are required");
    for (int s = 0; s < nsaves; s++)
        if (save_arg[s] >= nargs || args[save_arg[s]].kind != ARG_BUFFER)
            usage("--save names an argument that is not a buffer");
    cl_uint dims = grid_n > block_n ? grid_n : block_n;
    size_t global[3];
    for (int d = 0; d < 3; d++)
        global[d] = grid[d] * block[d];

    cl_int err;
    cl_platform_id platform = pick_platform();
    cl_device_id device;
    cl_check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL), "clGetDeviceIDs");
    char pname[256] = "", dname[256] = "";
    cl_uint units = 0;
    clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof pname - 1, pname, NULL);
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof dname - 1, dname, NULL);
    clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    fprintf(stderr, "%s: %s, device %s, %u compute units\n", prog, pname, dname, units);

    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_check(err, "clCreateContext");
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    cl_check(err, "clCreateCommandQueue");

    size_t src_len;
    char *src = read_file(cl_file, &src_len);
    const char *srcs[1] = { src };
    cl_program program = clCreateProgramWithSource(ctx, 1, srcs, &src_len, &err);
    cl_check(err, "clCreateProgramWithSource");
    err = clBuildProgram(program, 1, &device, "", NULL, NULL);
    if (err != CL_SUCCESS) {
        size_t n = 0;
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
        char *log = malloc(n + 1);
        if (log && clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, n, log, NULL) == CL_SUCCESS) {
            log[n] = '\0';
            fprintf(stderr, "%s", log);
        }
        free(log);
        cl_check(err, "clBuildProgram");
    }
    cl_kernel kernel = clCreateKernel(program, kernel_name, &err);
    cl_check(err, "clCreateKernel");

    for (int k = 0; k < nargs; k++) {
        Arg *a = &args[k];
        switch (a->kind) {
        case ARG_BUFFER:
            a->bytes = read_file(a->file, &a->size);
            if (a->size == 0) {
                fprintf(stderr, "%s: '%s' is empty\n", prog, a->file);
                return 1;
            }
            a->mem = clCreateBuffer(ctx, CL_MEM_READ_WRITE, a->size, NULL, &err);
            cl_check(err, "clCreateBuffer");
            err = clSetKernelArg(kernel, (cl_uint)k, sizeof a->mem, &a->mem);
            break;
        case ARG_INT:
            err = clSetKernelArg(kernel, (cl_uint)k, sizeof a->i, &a->i);
            break;
        case ARG_UINT:
            err = clSetKernelArg(kernel, (cl_uint)k, sizeof a->u, &a->u);
            break;
        case ARG_FLOAT:
            err = clSetKernelArg(kernel, (cl_uint)k, sizeof a->f, &a->f);
            break;
        }
        cl_check(err, "clSetKernelArg");
    }

    double wall[MAX_RUNS], cpu[MAX_RUNS];
    for (int r = -1; r < runs; r++) {   /* run -1 warms up */
        for (int k = 0; k < nargs; k++)
            if (args[k].kind == ARG_BUFFER)
                cl_check(clEnqueueWriteBuffer(queue, args[k].mem, CL_TRUE, 0, args[k].size, args[k].bytes,
                                              0, NULL, NULL), "clEnqueueWriteBuffer");
        double w0 = now_ms(CLOCK_MONOTONIC), c0 = now_ms(CLOCK_PROCESS_CPUTIME_ID);
        cl_check(clEnqueueNDRangeKernel(queue, kernel, dims, NULL, global, block, 0, NULL, NULL),
                 "clEnqueueNDRangeKernel");
        cl_check(clFinish(queue), "clFinish");
        double w1 = now_ms(CLOCK_MONOTONIC), c1 = now_ms(CLOCK_PROCESS_CPUTIME_ID);
        if (r >= 0) {
            wall[r] = w1 - w0;
            cpu[r] = c1 - c0;
        }
    }
    fprintf(stderr, "%s: %s: runs (ms):", prog, kernel_name);
    for (int r = 0; r < runs; r++)
        fprintf(stderr, " %.3f", wall[r]);
    double cpu_median = median(cpu, runs);
    fprintf(stderr, "; median CPU %.3f ms\n", cpu_median);
    printf("%.3f\n", median(wall, runs));

    for (int s = 0; s < nsaves; s++) {
        Arg *a = &args[save_arg[s]];
        cl_check(clEnqueueReadBuffer(queue, a->mem, CL_TRUE, 0, a->size, a->bytes, 0, NULL, NULL),
                 "clEnqueueReadBuffer");
        write_file(save_file[s], a->bytes, a->size);
    }

    for (int k = 0; k < nargs; k++)
        if (args[k].kind == ARG_BUFFER) {
            clReleaseMemObject(args[k].mem);
            free(args[k].bytes);
        }
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(src);
    return 0;
}
