"""Exports torchvision classifiers (random seeded weights) to ONNX as an operator would
(torch.onnx.export, opset 17, a dynamic batch axis) and writes PyTorch's reference for each:
the input, the logits, Saliency's gradient and IntegratedGradients' attribution (Captum's
defaults: 50 Gauss-Legendre steps, baseline 0, all steps in one batch) for the top class, and
their timings on one thread and on every core. bench/engine.ts reads these files.

Run: /usr/bin/python3 bench/torchvision/export.py [--out var/bench/torchvision] [--models a,b]
(Debian's python3-torch and python3-torchvision; the pyenv python3 has no torch.)
"""
import argparse
import json
import os
import time

import numpy as np
import torch
import torchvision.models as tvm

MODELS = {
    "resnet18": (lambda: tvm.resnet18(), 224),
    "resnet34": (lambda: tvm.resnet34(), 224),
    "resnet50": (lambda: tvm.resnet50(), 224),
    "squeezenet1_1": (lambda: tvm.squeezenet1_1(), 224),
    "vgg11_bn": (lambda: tvm.vgg11_bn(), 224),
    "vgg16": (lambda: tvm.vgg16(), 224),
    "densenet121": (lambda: tvm.densenet121(), 224),
    "mobilenet_v2": (lambda: tvm.mobilenet_v2(), 224),
    "mobilenet_v3_large": (lambda: tvm.mobilenet_v3_large(), 224),
    "googlenet": (lambda: tvm.googlenet(aux_logits=False, init_weights=True), 224),
    "inception_v3": (lambda: tvm.inception_v3(aux_logits=False, init_weights=True), 299),
    "efficientnet_b0": (lambda: tvm.efficientnet_b0(), 224),
    "shufflenet_v2_x1_0": (lambda: tvm.shufflenet_v2_x1_0(), 224),
    "regnet_y_400mf": (lambda: tvm.regnet_y_400mf(), 224),
    "mnasnet1_0": (lambda: tvm.mnasnet1_0(), 224),
    "convnext_tiny": (lambda: tvm.convnext_tiny(), 224),
    "vit_b_16": (lambda: tvm.vit_b_16(), 224),
    "swin_t": (lambda: tvm.swin_t(), 224),
    "alexnet": (lambda: tvm.alexnet(), 224),
    "wide_resnet50_2": (lambda: tvm.wide_resnet50_2(), 224),
}


def gauss_legendre(n):
    # Captum's approximation_parameters("gausslegendre"): nodes and weights moved from [-1, 1] to [0, 1].
    x, w = np.polynomial.legendre.leggauss(n)
    return list(0.5 * x + 0.5), list(0.5 * w)


def saliency(model, x, target):
    x = x.clone().requires_grad_(True)
    model(x)[:, target].sum().backward()
    return x.grad.detach()


def integrated_gradients(model, x, target, n_steps=50):
    alphas, weights = gauss_legendre(n_steps)
    a = torch.tensor(alphas, dtype=torch.float32).view(-1, 1, 1, 1)
    path = (a * x).requires_grad_(True)
    model(path)[:, target].sum().backward()
    w = torch.tensor(weights, dtype=torch.float32).view(-1, 1, 1, 1)
    return (path.grad * w).sum(0, keepdim=True) * x


def timed(fn, runs=3):
    fn()
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return float(np.median(ts)) * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="var/bench/torchvision")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--no-timing", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    cores = os.cpu_count() or 1
    for name in args.models.split(","):
        make, size = MODELS[name]
        torch.manual_seed(0)
        model = make().eval()
        for p in model.parameters():
            p.requires_grad_(False)
        g = torch.Generator().manual_seed(1)
        x = torch.rand(1, 3, size, size, generator=g)
        meta = {"name": name, "size": size, "torch": torch.__version__}
        try:
            torch.onnx.export(
                model, x, os.path.join(args.out, f"{name}.onnx"), opset_version=17,
                input_names=["input"], output_names=["logits"],
                dynamic_axes={"input": {0: "N"}, "logits": {0: "N"}}, do_constant_folding=True,
            )
        except Exception as e:  # noqa: BLE001 - recorded, the sweep goes on
            meta["exportError"] = str(e)[:500]
            json.dump(meta, open(os.path.join(args.out, f"{name}.json"), "w"))
            print(name, "export failed:", str(e)[:200], flush=True)
            continue
        torch.set_num_threads(1)
        with torch.no_grad():
            logits = model(x)
        target = int(logits.argmax())
        sal = saliency(model, x, target)
        ig = integrated_gradients(model, x, target)
        x.numpy().astype(np.float32).tofile(os.path.join(args.out, f"{name}.input.bin"))
        logits.numpy().astype(np.float32).tofile(os.path.join(args.out, f"{name}.logits.bin"))
        sal.numpy().astype(np.float32).tofile(os.path.join(args.out, f"{name}.saliency.bin"))
        ig.numpy().astype(np.float32).tofile(os.path.join(args.out, f"{name}.ig.bin"))
        meta.update({"target": target, "classes": int(logits.shape[1])})
        if not args.no_timing:
            for threads in sorted({1, cores}):
                torch.set_num_threads(threads)
                with torch.no_grad():
                    meta[f"forwardMs{threads}"] = timed(lambda: model(x))
                    xb = torch.rand(64, 3, size, size, generator=g)
                    meta[f"forward64Ms{threads}"] = timed(lambda: model(xb), runs=1)
                meta[f"saliencyMs{threads}"] = timed(lambda: saliency(model, x, target))
                meta[f"igMs{threads}"] = timed(lambda: integrated_gradients(model, x, target), runs=1)
        json.dump(meta, open(os.path.join(args.out, f"{name}.json"), "w"))
        print(json.dumps(meta), flush=True)


if __name__ == "__main__":
    main()
