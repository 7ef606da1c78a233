// hip_device.h - the few HIP device facilities the benchmark kernels use,
// declared over clang's AMDGPU builtins. Debian 12 has no HIP headers
// installed and its HIP 5.2 device library is not used by
// `-nogpuinc -nogpulib`, so the kernels are compiled against this alone.
#ifndef BENCH_HIP_DEVICE_H
#define BENCH_HIP_DEVICE_H

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __launch_bounds__(n) __attribute__((amdgpu_flat_work_group_size(1, n)))

#define threadIdx_x ((int)__builtin_amdgcn_workitem_id_x())
#define blockIdx_x ((int)__builtin_amdgcn_workgroup_id_x())
#define blockDim_x ((int)__builtin_amdgcn_workgroup_size_x())
// Code object v5 puts the grid's block count first among the hidden
// kernel arguments (hidden_block_count_x), where HIP's gridDim.x reads it.
#define gridDim_x ((int)((const unsigned *)__builtin_amdgcn_implicitarg_ptr())[0])

// HIP's __syncthreads(): release, barrier, acquire at work-group scope.
static __device__ inline void syncthreads(void)
{
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

// HIP's atomicAdd: relaxed, device scope (work-group scope for shared memory).
#define atomic_add_agent(p, v) __hip_atomic_fetch_add((p), (v), __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT)
#define atomic_add_block(p, v) __hip_atomic_fetch_add((p), (v), __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP)

typedef float float4_t __attribute__((ext_vector_type(4)));

#endif
