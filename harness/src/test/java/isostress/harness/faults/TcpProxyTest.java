package isostress.harness.faults;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fault proxy on loopback: passes bytes in order, adds the latency asked for, drops connections on demand. */
class TcpProxyTest {
    /** An echo server on loopback: every byte comes back. */
    private static ServerSocket echo() throws IOException {
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    Thread c = new Thread(() -> {
                        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                            in.transferTo(out);
                        } catch (IOException e) {
                            // closed
                        }
                    });
                    c.setDaemon(true);
                    c.start();
                } catch (IOException e) {
                    return;
                }
            }
        });
        t.setDaemon(true);
        t.start();
        return server;
    }

    private static long roundTripMillis(Socket s, byte[] msg) throws IOException {
        long t0 = System.nanoTime();
        s.getOutputStream().write(msg);
        byte[] back = new byte[msg.length];
        new DataInputStream(s.getInputStream()).readFully(back);
        assertArrayEquals(msg, back);
        return (System.nanoTime() - t0) / 1_000_000;
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void forwardsInOrderAddsLatencyAndDrops() throws Exception {
        try (ServerSocket server = echo(); TcpProxy proxy = new TcpProxy("127.0.0.1", server.getLocalPort());
             Socket s = new Socket("127.0.0.1", proxy.port())) {
            s.setSoTimeout(5_000);
            byte[] big = new byte[300_000];
            for (int i = 0; i < big.length; i++) big[i] = (byte) (i * 31);
            long fast = roundTripMillis(s, big);
            proxy.delay(150);
            long slow = roundTripMillis(s, "hello".getBytes());
            assertTrue(slow >= 290, "round trip with 150 ms each way took " + slow + " ms");
            proxy.delay(0);
            long healed = roundTripMillis(s, "again".getBytes());
            assertTrue(healed < 140, "after healing a round trip took " + healed + " ms (before the fault " + fast + ")");
            assertEquals(2, proxy.dropAll());
            assertThrows(IOException.class, () -> {
                s.getOutputStream().write(1);
                if (s.getInputStream().read() < 0) throw new IOException("closed");
            });
            try (Socket again = new Socket("127.0.0.1", proxy.port())) {
                again.setSoTimeout(5_000);
                roundTripMillis(again, "new connection".getBytes());
            }
        }
    }
}
