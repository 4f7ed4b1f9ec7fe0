package groundtruth_test

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/dbverify/dbverify/groundtruth"
)

// sharedEngines starts each dialect's engine once for the package's tests
// and stops them all when the tests end.
type sharedEngines struct {
	dir  string
	mu   sync.Mutex
	once map[groundtruth.Dialect]*sync.Once
	eng  map[groundtruth.Dialect]*groundtruth.Engine
	err  map[groundtruth.Dialect]error
}

var engines = &sharedEngines{
	once: map[groundtruth.Dialect]*sync.Once{},
	eng:  map[groundtruth.Dialect]*groundtruth.Engine{},
	err:  map[groundtruth.Dialect]error{},
}

// get returns the engine of d, starting it on first use; it fails t when
// the engine cannot start.
func (s *sharedEngines) get(t testing.TB, d groundtruth.Dialect) *groundtruth.Engine {
	t.Helper()
	s.mu.Lock()
	o := s.once[d]
	if o == nil {
		o = new(sync.Once)
		s.once[d] = o
	}
	s.mu.Unlock()
	o.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		e, err := groundtruth.Start(ctx, d, s.dir)
		s.mu.Lock()
		s.eng[d], s.err[d] = e, err
		s.mu.Unlock()
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.err[d]; err != nil {
		t.Fatalf("cannot start the %s engine (run `make deps` to install postgresql and mariadb-server): %v", d, err)
	}
	return s.eng[d]
}

func (s *sharedEngines) closeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for d, e := range s.eng {
		if e != nil {
			if err := e.Close(); err != nil {
				fmt.Fprintf(os.Stderr, "stopping %s: %v\n", d, err)
			}
		}
	}
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "groundtruth-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	engines.dir = dir
	code := m.Run()
	engines.closeAll()
	os.RemoveAll(dir)
	os.Exit(code)
}

func ratOf(s string) *big.Rat {
	r, _ := new(big.Rat).SetString(s)
	return r
}
