// fxbench_hip.h - the few HIP declarations the benchmark kernels use, so that
// clang compiles them with -nogpuinc -nogpulib (no ROCm headers installed).
#pragma once
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __launch_bounds__(n) __attribute__((amdgpu_flat_work_group_size(1, n)))
static __device__ inline unsigned tid_x() { return __builtin_amdgcn_workitem_id_x(); }
static __device__ inline unsigned tid_y() { return __builtin_amdgcn_workitem_id_y(); }
static __device__ inline unsigned bid_x() { return __builtin_amdgcn_workgroup_id_x(); }
static __device__ inline unsigned bid_y() { return __builtin_amdgcn_workgroup_id_y(); }
static __device__ inline unsigned bdim_x() { return __builtin_amdgcn_workgroup_size_x(); }
static __device__ inline unsigned bdim_y() { return __builtin_amdgcn_workgroup_size_y(); }
static __device__ inline unsigned gdim_x() { return __builtin_amdgcn_grid_size_x() / __builtin_amdgcn_workgroup_size_x(); }
static __device__ inline void sync_threads()
{
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
// AMD's device math library (ocml.bc), linked with -mlink-builtin-bitcode as
// clang's HIP toolchain does.
extern "C" __device__ double __ocml_exp_f64(double);
extern "C" __device__ double __ocml_sin_f64(double);
extern "C" __device__ double __ocml_cos_f64(double);
