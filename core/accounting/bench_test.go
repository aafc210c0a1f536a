package accounting

import "testing"

// The workloads of bench/accounting (10⁶ Gaussians, 10⁶ Laplace, 1,000 distinct Laplace, DP-SGD)
// natively, at the default tolerance; bench/accounting/bench.mjs runs them in WebAssembly beside
// dp_accounting.
func BenchmarkEpsilon(b *testing.B) {
	distinct := make([]Event, 1000)
	for i := range distinct {
		distinct[i] = Event{Mechanism: Laplace, Scale: 50 + float64(i)/10}
	}
	for _, w := range []struct {
		name   string
		events []Event
	}{
		{"gaussians", []Event{{Mechanism: Gaussian, Sigma: 1000, Count: 1000000}}},
		{"laplace", []Event{{Mechanism: Laplace, Scale: 1000, Count: 1000000}}},
		{"distinctLaplace", distinct},
		{"dpsgd", []Event{{Mechanism: Subsampled, Rate: 0.01, Of: &Event{Mechanism: Gaussian, Sigma: 1}, Count: 10000}}},
	} {
		b.Run(w.name, func(b *testing.B) {
			var r *Result
			for i := 0; i < b.N; i++ {
				var err error
				if r, err = Epsilon(bg, w.events, 1e-5, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(r.Epsilon, "ε")
			b.ReportMetric((r.Upper-r.Lower)/r.Epsilon, "width/ε")
		})
	}
}
