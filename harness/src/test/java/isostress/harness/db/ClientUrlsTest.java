package isostress.harness.db;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ClientUrlsTest {
    @Test
    void userInfoIsReadAndRemoved() {
        String url = "jdbc:postgresql://iso%40user:p%3Ass+w@db.example:6543/app?sslmode=require";
        assertArrayEquals(new String[] {"iso@user", "p:ss+w"}, ClientUrls.userInfo(url));
        assertEquals("jdbc:postgresql://db.example:6543/app?sslmode=require", ClientUrls.withoutUserInfo(url));
        assertArrayEquals(new String[] {"u", null}, ClientUrls.userInfo("jdbc:mariadb://u@h/db"));
        assertNull(ClientUrls.userInfo("jdbc:mariadb://h:3306/db?user=u"));
        assertEquals("jdbc:mariadb://h:3306/db", ClientUrls.withoutUserInfo("jdbc:mariadb://h:3306/db"));
    }

    @Test
    void partsForMessages() {
        assertEquals("db.example:6543", ClientUrls.hostPort("jdbc:postgresql://u:p@db.example:6543/app", 5432));
        assertEquals("h:5432", ClientUrls.hostPort("jdbc:postgresql://h/app", 5432));
        assertEquals("app", ClientUrls.database("jdbc:postgresql://u:p@h:1/app?x=y"));
        assertNull(ClientUrls.database("jdbc:postgresql://h:1/"));
        assertEquals("bob", ClientUrls.userParameter("jdbc:mariadb://h/db?ssl=true&user=bob&password=x"));
        assertEquals("jdbc:postgresql://u:p@127.0.0.1:9/app",
                ClientUrls.via("jdbc:postgresql://u:p@h:5432/app", "127.0.0.1", 9));
    }
}
