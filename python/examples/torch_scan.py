"""gridsync's scan, reduce and sgemm on torch tensors, checked against FP64.

    python python/examples/torch_scan.py
"""
import torch

import gridsync

x = torch.rand(10_000_019, device="cuda")           # any length; float32/64, int32/64
prefix = gridsync.scan(x)                            # inclusive sum, on torch's current stream
total = gridsync.reduce(x, "sum")                    # a 0-d tensor, still on the GPU
value, index = gridsync.reduce(x, "argmax")
c = gridsync.sgemm(x[:64 * 96].view(64, 96), x[:96 * 32].view(96, 32))   # FP32 A @ B

ref = torch.cumsum(x.double(), 0)
err = ((prefix.double() - ref).abs() / ref.abs().clamp_min(1)).max().item()
print("scan: max relative error %.2e; sum %.6g (FP64 %.6g); argmax %d (torch %d)" %
      (err, total.item(), x.double().sum().item(), index.item(), x.argmax().item()))
assert err < 1e-5 and index.item() == x.argmax().item() and value.item() == x.max().item()
assert torch.allclose(c, x[:64 * 96].view(64, 96) @ x[:96 * 32].view(96, 32), rtol=1e-4)
print("torch_scan: OK")
