// Command serve serves a directory (web/ by default) on localhost for development and tests.
//
// It sets the wasm MIME type so that browsers can compile while downloading, compresses
// responses with gzip when the client accepts it (so measured transfer sizes match a real
// static host), and disables caching so that a rebuilt module is always picked up.
package main

import (
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"log"
	"mime"
	"net"
	"net/http"
	"strings"
)

func main() {
	dir := flag.String("dir", "web", "directory to serve")
	port := flag.Int("port", 8080, "port on localhost (0 picks a free one)")
	flag.Parse()
	_ = mime.AddExtensionType(".wasm", "application/wasm")
	_ = mime.AddExtensionType(".mjs", "text/javascript")
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port))
	if err != nil {
		log.Fatalf("serve: %v (set PORT to use another port)", err)
	}
	fmt.Printf("serving %s at http://localhost:%d/\n", *dir, ln.Addr().(*net.TCPAddr).Port)
	log.Fatal(http.Serve(ln, withGzip(noCache(http.FileServer(http.Dir(*dir))))))
}

func noCache(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		h.ServeHTTP(w, r)
	})
}

type gzipWriter struct {
	http.ResponseWriter
	w io.Writer
}

func (g gzipWriter) Write(b []byte) (int, error) { return g.w.Write(b) }

func (g gzipWriter) WriteHeader(code int) {
	g.ResponseWriter.Header().Del("Content-Length")
	g.ResponseWriter.WriteHeader(code)
}

func withGzip(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") || r.Header.Get("Range") != "" {
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Add("Vary", "Accept-Encoding")
		gz, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
		defer gz.Close()
		h.ServeHTTP(gzipWriter{ResponseWriter: w, w: gz}, r)
	})
}
