package isostress.harness.db.mongodb;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoSecurityException;
import com.mongodb.MongoTimeoutException;
import isostress.harness.db.ClientUrls;
import isostress.harness.db.Secrets;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why a first MongoDB connection failed, as one sentence. The driver reports a server it cannot reach only as a
 * server selection timeout whose message holds its cluster view; the reason is the last exception listed there
 * ({@code caused by {java.net.ConnectException: Connection refused}}). Authentication failure is server error 18,
 * AuthenticationFailed (https://www.mongodb.com/docs/manual/reference/error-codes/).
 */
final class MongoConnectErrors {
    private static final Pattern CAUSE = Pattern.compile("(?:exception|caused by)=?\\s*\\{([^{}]*)}");

    private MongoConnectErrors() {
    }

    static String explain(String uri, String user, Duration timeout, Exception e) {
        String where = "cannot connect to MongoDB at " + ClientUrls.hostPort(uri, 27017) + ": ";
        String why;
        MongoSecurityException security = find(e, MongoSecurityException.class);
        MongoCommandException command = find(e, MongoCommandException.class);
        if (security != null || command != null && command.getErrorCode() == 18) {
            String[] info = ClientUrls.userInfo(uri);
            String who = user != null ? user : info != null ? info[0] : null;
            why = "authentication failed for user '" + who + "' (MongoDB 18 AuthenticationFailed): check user-env / "
                    + "password-env (or the uri's user:password@) and authSource";
        } else if (e instanceof MongoTimeoutException) {
            String cause = null;
            Matcher m = CAUSE.matcher(String.valueOf(e.getMessage()));
            while (m.find()) cause = m.group(1).trim();
            why = "no server answered within " + timeout.toMillis() + " ms (server selection"
                    + (cause == null ? "" : ": " + cause) + "): is mongod running there, are host and port right, "
                    + "and does the replicaSet name match?";
        } else {
            why = e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        return Secrets.mask(where + why);
    }

    private static <T extends Throwable> T find(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) return type.cast(t);
            if (t.getCause() == t) break;
        }
        return null;
    }
}
