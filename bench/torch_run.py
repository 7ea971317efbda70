"""torch_run.py -- the PyTorch peer of the cupitc benchmark (bench/run.sh).

Full-batch training of an n_in-H-n_out logistic-sigmoid perceptron with
torch.optim.Rprop(lr=0.05, etas=(0.5, 1.1), step_sizes=(1e-6, 50)), float32,
on the CPU, torch.set_num_threads(T).  Loss 0.5 * sum((y - t)**2), so the
gradient is the same dE/dw as in the C references.  Initial weights come from
a file written by bench_tool (same values as the C programs).  Prints one
RESULT line in the format of bench_common.c."""
import argparse
import resource
import statistics
import sys
import time


def read_fann(path):
    with open(path) as f:
        tok = f.read().split()
    n, n_in, n_out = int(tok[0]), int(tok[1]), int(tok[2])
    vals = [float(v) for v in tok[3:3 + n * (n_in + n_out)]]
    if len(vals) != n * (n_in + n_out):
        sys.exit("torch_run: %s is not a valid FANN data file" % path)
    xs, ts, w = [], [], n_in + n_out
    for p in range(n):
        xs.append(vals[p * w:p * w + n_in])
        ts.append(vals[p * w + n_in:(p + 1) * w])
    return n, n_in, n_out, xs, ts


def main():
    ap = argparse.ArgumentParser()
    for name in ("--train", "--test", "--label", "--weights"):
        ap.add_argument(name)
    # --seed: accepted like the other systems; the start weights come from --weights
    for name, default in (("--hidden", 16), ("--epochs", 20), ("--warmup", 2), ("--threads", 1),
                          ("--seed", 1)):
        ap.add_argument(name, type=int, default=default)
    a = ap.parse_args()
    import torch
    torch.set_num_threads(a.threads)
    n, n_in, n_out, xs, ts = read_fann(a.train)
    X, T = torch.tensor(xs, dtype=torch.float32), torch.tensor(ts, dtype=torch.float32)
    h = a.hidden
    with open(a.weights, "rb") as f:
        raw = torch.frombuffer(bytearray(f.read()), dtype=torch.float32)
    n1 = h * (n_in + 1)
    l1, l2 = raw[:n1].view(h, n_in + 1), raw[n1:].view(n_out, h + 1)
    W1, b1 = l1[:, :n_in].clone().requires_grad_(), l1[:, n_in].clone().requires_grad_()
    W2, b2 = l2[:, :h].clone().requires_grad_(), l2[:, h].clone().requires_grad_()
    params = [W1, b1, W2, b2]
    opt = torch.optim.Rprop(params, lr=0.05, etas=(0.5, 1.1), step_sizes=(1e-6, 50))

    def forward(x):
        hid = torch.sigmoid(torch.addmm(b1, x, W1.t()))
        return torch.sigmoid(torch.addmm(b2, hid, W2.t()))

    times, sse = [], 0.0
    for _ in range(a.epochs):
        t0 = time.perf_counter()
        opt.zero_grad(set_to_none=True)
        loss = 0.5 * ((forward(X) - T) ** 2).sum()
        loss.backward()
        opt.step()
        sse = 2.0 * loss.item()
        times.append(time.perf_counter() - t0)

    acc, tmse = "n/a", "n/a"
    if a.test:
        m, _, _, txs, tts = read_fann(a.test)
        with torch.no_grad():
            Y, TT = forward(torch.tensor(txs)), torch.tensor(tts)
        tmse = "%.6g" % (((Y - TT) ** 2).sum().item() / (m * n_out))
        onehot = bool(((TT == 0) | (TT == 1)).all()) and bool((TT.sum(1) == 1).all())
        if onehot:
            acc = "%.4f" % (Y.argmax(1) == TT.argmax(1)).double().mean().item()
    skip = min(a.warmup, a.epochs - 1)
    sec = statistics.median(times[skip:])
    conns = n1 + n_out * (h + 1)
    print("RESULT system=torch data=%s hidden=%d threads=%d conns=%d examples=%d "
          "epochs=%d sec_epoch=%.6g mcups=%.2f train_mse=%.6g test_acc=%s test_mse=%s "
          "peak_rss_kb=%d note=torch-%s" %
          (a.label or "data", h, a.threads, conns, n, a.epochs, sec, conns * n / sec / 1e6,
           sse / (n * n_out), acc, tmse, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
           torch.__version__))


if __name__ == "__main__":
    main()
